/**
 * `capstan replay`: an operator's own delivery logs in, what Capstan would have classified and which policies its
 * engine would have applied, and when, out. Contributed to the CLI through the ip-schedule plugin's `commands`; runs
 * without a host, starting the bounce-classifier plugin (and its classifier) with `usePlugin`, so replies are
 * classified
 * exactly as `POST /v1/backoff/events` classifies them.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { Compile } from 'typebox/schema';
import { ipScheduleConfigSchema } from '../../../generated/validators/plugins/ip-schedule.ts';
import { parse as parseYaml } from 'yaml';
import { fillDefaults, usePlugin } from '../../../runtime/mod.ts';
import type { CommandIo, IpRecord, PluginCommand, ReplyClassifier } from '../../../runtime/mod.ts';
import { groupingProvider, providerRows } from '../adaptive.ts';
import { toRecord, type IpConfigInput } from '../records.ts';
import { Providers } from '../backoff/providers.ts';
import { policyTable, shareTriggers, type BackoffConfig } from '../backoff/table.ts';
import { FORMAT_NAMES, type FormatName } from './attempt.ts';
import { renderHtml } from './html.ts';
import { expandArgs, sources } from './input.ts';
import { progressBar } from './progress.ts';
import { ReplyClassCache } from './reply-classes.ts';
import { replay } from './replay.ts';
import { engineSimulator } from './simulate.ts';
import { WarmupPlan } from './warmup-plan.ts';
import { summary } from './terminal.ts';

const USAGE_LINE =
  'replay [--config FILE] [--schedules FILE] [--from T] [--to T] [--format auto|postfix|exim|kumomta|halon|powermta] [--json] [--html FILE] LOG...';
const USAGE = `Usage: capstan ${USAGE_LINE}

Reads delivery logs as the MTA wrote them (plain or gzip; several files or a pattern for a rotated set; - for stdin),
classifies every failed attempt's reply as the server would, and runs the backoff policy engine over the attempts on
a simulated clock. Prints a summary per provider and the policies that would have fired, with their reasons.
  --config FILE  startup document: its ip-schedule backoff policies and bounce-classifier are used
  --schedules FILE  warm-up schedules (the JSON of GET /config): each grouping's plan per hour against what was sent
  --from, --to   replay only attempts at or after --from and before --to (ISO 8601: 2025-03-10 or 2025-03-10T12:00Z)
  --format       the logs' format (default auto: told from each file's first lines)
  --json         print the report as JSON instead (its shape: docs/replay.md)
  --html FILE    also write a self-contained HTML report with charts
`;

const OPTIONS = {
  config: { type: 'string' },
  schedules: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  format: { type: 'string', default: 'auto' },
  json: { type: 'boolean', default: false },
  html: { type: 'string' },
  help: { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

// The plugin's whole config schema (its backoff section refers to definitions at the schema's root)
const validConfig = Compile(ipScheduleConfigSchema);

interface Setup {
  backoff: BackoffConfig;
  classifier: Entry;
  /** The plugin's time zone: warm-up days turn at its midnight */
  timezone: string;
  /** The document's plugins, which the classifier's own services resolve from */
  entries: Entry[];
  baseDir: string;
}

/** The plugin's config with the schema's defaults filled in, as the loader fills it for `serve` */
function configOf(given: Record<string, unknown>): PluginConfig {
  // The loader casts a plugin's TypeBox schema to the JSON Schema it is in the same way
  const schema = ipScheduleConfigSchema as unknown as Parameters<typeof fillDefaults>[0];
  return fillDefaults(schema, { timezone: 'UTC', ...given } as Record<string, unknown>) as unknown as PluginConfig;
}

type Entry = { id: string; path?: string; config?: unknown };
type PluginConfig = { backoff: BackoffConfig; classifier?: string; timezone: string };

/** An entry's config: inline, or read from the YAML or JSON file it names (relative to the document) */
async function entryConfig(entry: Entry | undefined, baseDir: string): Promise<Record<string, unknown>> {
  const config = entry?.config;
  if (typeof config === 'string')
    return (parseYaml(await readFile(resolve(baseDir, config), 'utf8')) ?? {}) as Record<string, unknown>;
  return (config ?? {}) as Record<string, unknown>;
}

/**
 * The backoff policies and classifier of a startup document, or the defaults without one. The classifier is the
 * service `serve` would give ip-schedule: the plugin its `classifier` names (default `bounce-classifier`), with that
 * plugin's own entry of the document (its path, for a plugin of your own, and config)
 */
async function setupFrom(file: string | undefined): Promise<Setup> {
  if (file === undefined)
    return {
      backoff: configOf({}).backoff,
      classifier: { id: 'bounce-classifier' },
      timezone: 'UTC',
      entries: [],
      baseDir: process.cwd(),
    };
  const path = resolve(file);
  const baseDir = dirname(path);
  const document = parseYaml(await readFile(path, 'utf8')) as { plugins?: Entry[] } | null;
  const plugins = document?.plugins ?? [];
  const config = configOf(
    await entryConfig(
      plugins.find((entry) => entry.id === 'ip-schedule'),
      baseDir,
    ),
  );
  if (!validConfig.Check(config))
    throw new Error(`The config of "ip-schedule" in "${file}" is invalid: check it with capstan config check`);
  const classifierId = config.classifier ?? 'bounce-classifier';
  const entry = plugins.find((each) => each.id === classifierId) ?? { id: classifierId };
  return { backoff: config.backoff, classifier: entry, timezone: config.timezone, entries: plugins, baseDir };
}

/** The plan of `--schedules`: `GET /config`'s `{"ips": {ip: {groupings}}}`, each IP's checked as `POST /config/{ip}` checks it */
async function warmupPlan(file: string, setup: Setup): Promise<WarmupPlan> {
  const given = parseYaml(await readFile(file, 'utf8')) as { ips?: Record<string, IpConfigInput> } | null;
  if (!given?.ips || typeof given.ips !== 'object')
    throw new Error(`"${file}" holds no "ips": give the JSON of GET /config`);
  const schedules = new Map<string, IpRecord>();
  for (const [ip, config] of Object.entries(given.ips)) {
    try {
      schedules.set(ip, toRecord(config));
    } catch (error) {
      throw new Error(`The schedule of "${ip}" in "${file}": ${(error as Error).message}`);
    }
  }
  const rows = providerRows(setup.backoff.providers);
  return new WarmupPlan(
    schedules,
    (grouping) => grouping.adaptive?.provider ?? groupingProvider(grouping.grouping, rows),
    setup.timezone,
  );
}

function timeArg(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new UsageError(
      `--${name} "${value}" is not a time: give ISO 8601, such as 2025-03-10 or 2025-03-10T12:00:00Z`,
    );
  return time;
}

class UsageError extends Error {}

export const replayCommand: PluginCommand = {
  summary: 'Replay MTA delivery logs: how replies classify, which backoff policies would have fired and when',
  usage: USAGE_LINE,
  run,
};

async function run(args: string[], io: CommandIo): Promise<number> {
  let values;
  let files: string[];
  let from: number | undefined;
  let to: number | undefined;
  try {
    const parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    values = parsed.values;
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (values.format !== 'auto' && !(FORMAT_NAMES as readonly string[]).includes(values.format)) {
      throw new UsageError(`unknown format "${values.format}", expected "auto", "${FORMAT_NAMES.join('", "')}"`);
    }
    if (parsed.positionals.length === 0) throw new UsageError('no LOG given (use - for stdin)');
    from = timeArg('from', values.from);
    to = timeArg('to', values.to);
    // Swapped bounds would replay nothing and report an empty week as if the logs held no attempt
    if (from !== undefined && to !== undefined && from >= to) {
      throw new UsageError(`--from "${values.from}" is not before --to "${values.to}": nothing would be replayed`);
    }
    files = parsed.positionals;
  } catch (error) {
    io.stderr.write(`capstan replay: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const cacheDir = await mkdtemp(join(tmpdir(), 'capstan-replay-'));
  let plugin;
  try {
    const setup = await setupFrom(values.config);
    const table = policyTable(setup.backoff);
    const providers = new Providers(setup.backoff.providers);
    const inputs = await sources(await expandArgs(files), io.stdin);
    const warmup = values.schedules === undefined ? undefined : await warmupPlan(values.schedules, setup);
    // The classifier's persisted cache goes to a folder of this run: a server's own cache is never written by two
    // processes
    plugin = await usePlugin<ReplyClassifier>(setup.classifier, {
      baseDir: setup.baseDir,
      entries: setup.entries,
      env: { ...process.env, SERVICE_BNAC_CACHE_FOLDER: cacheDir },
    });
    if (typeof plugin.service?.classifyReplies !== 'function')
      throw new Error(`Plugin "${setup.classifier.id}" offers no reply classifier`);
    const bar = progressBar(io.stderr, inputs);
    const report = await replay({
      sources: inputs,
      format: values.format as FormatName | 'auto',
      from,
      to,
      classes: new ReplyClassCache(plugin.service),
      simulator: engineSimulator(table, {
        providers,
        shares: shareTriggers(setup.backoff),
        recovery: setup.backoff.recovery,
        explain: plugin.service.explainReply && ((message) => plugin!.service.explainReply!('backoff', message)),
      }),
      providerOf: (remoteMx, recipientDomain) => providers.of(remoteMx || undefined, recipientDomain || undefined),
      warmup,
      progress: bar.update,
    });
    bar.done();
    if (values.html !== undefined) await writeFile(values.html, renderHtml(report));
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : summary(report));
    return 0;
  } catch (error) {
    io.stderr.write(`capstan replay: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await plugin?.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
}
