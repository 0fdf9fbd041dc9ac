import { defaultStartupDocument } from '../host/default-startup.ts';
import { stdoutLines } from '../observability/log-sink.ts';
import { startHost } from '../host/serve.ts';

/** `capstan serve [--config FILE]`: runs until SIGTERM or SIGINT, then shuts down gracefully */
export async function serveCommand(args: string[]): Promise<number> {
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--config' && args[i + 1]) config = args[++i];
    else if (args[i].startsWith('--config=')) config = args[i].slice('--config='.length);
    else if (args[i] === '--help' || args[i] === '-h') {
      process.stdout.write('Usage: capstan serve [--config FILE]\n');
      return 0;
    } else {
      process.stderr.write(`capstan serve: unexpected argument "${args[i]}"\n`);
      return 2;
    }
  }
  let host;
  try {
    host = await startHost(config ?? defaultStartupDocument());
  } catch (error) {
    process.stderr.write(`capstan serve: ${(error as Error).message}\n`);
    return 1;
  }
  // A document of the MTA's servers alone (smtp, plugin) leaves nothing to keep the process up: Node would end it
  // silently with status 13 (an unsettled top-level await) rather than say why
  if (host.urls.length === 0) {
    await host.close();
    const source = config === undefined ? 'the document' : `"${config}"`;
    process.stderr.write(`capstan serve: Nothing to serve: ${source} has no listener of an http or https server\n`);
    return 1;
  }
  // Through the log's sink: a reader that already went away (`capstan serve | head -1`) must not stop the host
  for (const url of host.urls) stdoutLines().write(`listening on ${url}\n`);
  const running = host;
  return new Promise<number>((done) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      running.log.info('shutting down', { signal });
      running.close().then(
        () => done(0),
        (error) => {
          process.stderr.write(`capstan serve: ${(error as Error).message}\n`);
          done(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
