import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI } from '../host/_fixtures.ts';

/** Writes a startup document serving ip-schedule (with `config`) on `port` into `folder`; answers its path */
export async function writeStartupDocument(
  folder: string,
  port: number,
  plugins: unknown[] = [],
  config?: Record<string, unknown>,
): Promise<string> {
  const file = join(folder, 'capstan.json');
  const document = {
    version: '6.10',
    servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port }] }],
    plugins: [...plugins, { id: 'ip-schedule', ...(config ? { config } : {}) }],
  };
  await writeFile(file, JSON.stringify(document));
  return file;
}

/** Runs `capstan serve --config FILE` and resolves with the child and its URL once it listens */
export function serve(
  config: string,
  env: Record<string, string | undefined> = process.env,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((done, fail) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(output);
      if (match) done({ child, url: match[1]! });
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => fail(new Error(`capstan serve exited with "${code}" before listening: ${output}`)));
  });
}

/** Kills the child with SIGKILL and waits until it is gone */
export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

/** Resident memory of process `pid` in MiB */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}
