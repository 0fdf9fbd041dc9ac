import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { classifyMessages, normaliserOf } from '../../plugins/bounce-classifier/classify.ts';
import { classifyEmailCommand } from '../../plugins/bounce-classifier/email/cli.ts';
import { backoffFormat, bnacV2 } from '../../plugins/bounce-classifier/format.ts';
import { usePlugin } from '../plugins/use.ts';
import type { Classifier, ClassifierModel } from '../services/classifier.ts';

const USAGE = `Usage: capstan classify [--model bnac|backoff] [--json] [TEXT...]

Classifies bounce replies offline with the built-in model. Without TEXT, classifies each non-empty line
of stdin. Prints one line per message: the class and its probability, tab-separated (backoff also prints
fields and actions), or with --json one JSON object per line, shaped as the HTTP API answers.
`;

/** Messages classified per call when reading stdin, so output streams while input keeps coming */
const STDIN_BATCH = 1_000;

/** `capstan classify`: answers the exit code (0 done, 1 failure, 2 usage error) */
export async function classifyCommand(args: string[]): Promise<number> {
  if (args.includes('--email')) return classifyEmailCommand(args, process.stdout, process.stderr);
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { model: { type: 'string', default: 'bnac' }, json: { type: 'boolean', default: false }, help: { type: 'boolean' } },
    });
  } catch (error) {
    process.stderr.write(`capstan classify: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const model = values.model;
  if (model !== 'bnac' && model !== 'backoff') {
    process.stderr.write(`capstan classify: unknown model "${model}", expected "bnac" or "backoff"\n`);
    return 2;
  }
  const plugin = await usePlugin<Classifier>({ id: 'bounce-model' });
  try {
    const print = printer(model, values.json);
    if (positionals.length > 0) {
      await classifyAndPrint(plugin.service, model, positionals, print);
      return 0;
    }
    let batch: string[] = [];
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      batch.push(line);
      if (batch.length < STDIN_BATCH) continue;
      await classifyAndPrint(plugin.service, model, batch, print);
      batch = [];
    }
    await classifyAndPrint(plugin.service, model, batch, print);
    return 0;
  } catch (error) {
    process.stderr.write(`capstan classify: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await plugin.close();
  }
}

type Print = (message: string, result: Record<string, unknown>) => string;

function printer(model: ClassifierModel, json: boolean): Print {
  if (json) return (message, result) => JSON.stringify({ message, ...result });
  if (model === 'bnac') return (_message, result) => `${result.class}\t${result.probability}`;
  return (_message, result) =>
    `${result.class}\t${result.probability}\t${(result.fields as string[]).join(',')}\t${(result.actions as string[]).join(',')}`;
}

async function classifyAndPrint(classifier: Classifier, model: ClassifierModel, messages: string[], print: Print): Promise<void> {
  if (messages.length === 0) return;
  const results = await classifyMessages({ classifier, normalise: normaliserOf(classifier) }, model, messages, { useCache: false });
  const format = model === 'bnac' ? bnacV2 : backoffFormat(true);
  const lines = results.map((result, i) => print(messages[i]!, format(result) as Record<string, unknown>));
  process.stdout.write(`${lines.join('\n')}\n`);
}
