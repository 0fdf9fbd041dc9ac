/**
 * `capstan classify`: classifies bounce replies offline with the configured classifier, no host needed: the plugin
 * the `classifier` key of this plugin's config names in the startup document (`--config`), as `capstan serve` finds
 * it, else the built-in model. Contributed to the CLI through the plugin's `commands`.
 */
import { createInterface } from 'node:readline';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Classifier, ClassifierModel, CommandIo, PluginCommand } from '../../runtime/mod.ts';
import { classifyNormalised, normaliserOf } from './classify.ts';
import { classifyEmailCommand } from './email-command.ts';
import { explanationColumn, withExplanations, type ApiExplanation } from './explain.ts';
import { backoffFormat, bnacV2 } from './format.ts';

const USAGE_LINE = 'classify [--model bnac|backoff] [--json] [--explain] [TEXT... | --email FILE|FOLDER...]';
const USAGE = `Usage: capstan ${USAGE_LINE}

Classifies bounce replies offline with the configured classifier: the one \`capstan --config FILE serve\`
would use, else the built-in model. Without TEXT, classifies each non-empty line
of stdin. Prints one line per message: the class and its probability, tab-separated (backoff also prints
fields and actions), or with --json one JSON object per line, shaped as the HTTP API answers.
--explain adds what decided each class, as ?explain=true does over HTTP: with --json an "explanation" object,
else a last column, rule=ID (a rule of the model) or model=WORD:WEIGHT,... (the model's heaviest features).
With --email, reads whole bounce emails instead (files, maildirs, folders of .eml) and classifies every
recipient, as POST /v1/bounce-email does: capstan classify --email --help.
`;

/** The command's options: one entry per option, so that a new one is one line here and its branch in `run` */
const OPTIONS = {
  model: { type: 'string', default: 'bnac' },
  email: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  explain: { type: 'boolean', default: false },
  help: { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

/** Messages classified per call when reading stdin, so output streams while input keeps coming */
const STDIN_BATCH = 1_000;

/** The `classify` command */
export const classifyCommand: PluginCommand = {
  summary: 'Classify bounce replies offline (lines on stdin without TEXT), or whole bounce emails with --email',
  usage: USAGE_LINE,
  run,
};

async function run(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    io.stderr.write(`capstan classify: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  // Whole bounce emails take files and folders, not reply texts, and answer both models: their own reader
  // (email-command.ts)
  const useClassifier = () => io.useService<Classifier>('classifier');
  if (values.email) return classifyEmailCommand(positionals, values, io.stdout, io.stderr, useClassifier);
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const model = values.model;
  if (model !== 'bnac' && model !== 'backoff') {
    io.stderr.write(`capstan classify: unknown model "${model}", expected "bnac" or "backoff"\n`);
    return 2;
  }
  const plugin = await useClassifier();
  try {
    const classifyBatch = batchPrinter(plugin.service, model, values, io);
    if (positionals.length > 0) await classifyBatch(positionals);
    else await eachStdinBatch(io.stdin, classifyBatch);
    return 0;
  } catch (error) {
    io.stderr.write(`capstan classify: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await plugin.close();
  }
}

/** Calls `handle` with the non-empty lines of `input`, in batches of `STDIN_BATCH` */
async function eachStdinBatch(
  input: NodeJS.ReadableStream,
  handle: (messages: string[]) => Promise<void>,
): Promise<void> {
  let batch: string[] = [];
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    batch.push(line);
    if (batch.length < STDIN_BATCH) continue;
    await handle(batch);
    batch = [];
  }
  await handle(batch);
}

type Print = (message: string, result: Record<string, unknown>) => string;

function printer(model: ClassifierModel, json: boolean, explain: boolean): Print {
  if (json) return (message, result) => JSON.stringify({ message, ...result });
  const columns: Print =
    model === 'bnac'
      ? (_message, result) => `${result.class}\t${result.probability}`
      : (_message, result) =>
          `${result.class}\t${result.probability}\t${(result.fields as string[]).join(',')}\t${(result.actions as string[]).join(',')}`;
  if (!explain) return columns;
  return (message, result) =>
    `${columns(message, result)}\t${explanationColumn(result.explanation as ApiExplanation | undefined)}`;
}

/** Classifies a batch of messages and prints one line per message */
function batchPrinter(
  classifier: Classifier,
  model: ClassifierModel,
  options: { json: boolean; explain: boolean },
  io: CommandIo,
): (messages: string[]) => Promise<void> {
  const print = printer(model, options.json, options.explain);
  const format = model === 'bnac' ? bnacV2 : backoffFormat(true);
  const normalise = normaliserOf(classifier);
  return async (messages) => {
    if (messages.length === 0) return;
    // Normalised once: the explanations read the same texts the classifier did
    const texts = messages.map(normalise);
    const results = await classifyNormalised({ classifier }, model, texts, { useCache: false });
    const answers = results.map((result) => format(result) as Record<string, unknown>);
    const shown = options.explain ? await withExplanations(classifier, model, texts, results, answers) : answers;
    const lines = shown.map((answer, i) => print(messages[i]!, answer));
    io.stdout.write(`${lines.join('\n')}\n`);
  };
}
