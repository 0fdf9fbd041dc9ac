import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Classifier, CommandService } from '../../runtime/mod.ts';
import { normaliserOf } from './classify.ts';
import { classifyReports } from './classify-email.ts';
import type { BounceAnswer } from './classify-email.ts';
import { isMbox, mboxMessages } from './email/mbox.ts';
import type { MboxMessage } from './email/mbox.ts';
import { parseBounce } from './email/parse.ts';
import type { BounceReport } from './email/types.ts';
import { explanationColumn } from './explain.ts';

const USAGE = `Usage: capstan classify --email [--json] [--explain] FILE|FOLDER...

Reads whole bounce emails (files, mbox files: each message as FILE#N, folders of .eml files, or maildirs: the
files in cur/ and new/), finds what
kind each is and its recipients, and classifies the failed and delayed ones with the configured classifier, as
POST /v1/bounce-email does. Prints one line per recipient (FILE, kind, recipient, BNAC class, backoff class,
reply), or one per email without recipients, then a table of counts per kind and class; with --json, one JSON
object per email instead ({"file", ...the HTTP answer}, or {"file", "error"}). --explain adds what decided
each class, as ?explain=true does: an "explanation" in each JSON class, or two last columns (BNAC, backoff) of
rule=ID or model=WORD:WEIGHT,.... A progress bar goes to stderr
when it is a terminal. Exit codes: 0 done, 1 some file could not be read as an email, 2 usage error.
`;

/** Emails parsed before their recipients are classified together: one classifier call per model per batch */
const BATCH = 256;
/** Larger emails (a file, or one message of an mbox) are not read: the HTTP API refuses far less (8 MiB by default) */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A writable stream as the command uses it; `isTTY` turns the progress bar on */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** An email file; `size` when telling a file from a folder already read it, so that reading the file need not */
interface EmailFile {
  path: string;
  size?: number;
}

/** The emails a path names: the file itself, or a folder's */
async function emailFiles(path: string): Promise<EmailFile[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [{ path, size: info.size }];
  return (await folderEmails(path)).map((file) => ({ path: file }));
}

/** The emails of a folder: a maildir's cur/ and new/, or its .eml files, recursively */
async function folderEmails(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true });
  const names = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  if (names.has('cur') || names.has('new')) {
    const inBox = await Promise.all(
      ['cur', 'new']
        .filter((d) => names.has(d))
        .map(async (d) =>
          (await readdir(join(path, d), { withFileTypes: true }))
            .filter((e) => e.isFile())
            .map((e) => join(path, d, e.name)),
        ),
    );
    return inBox.flat().sort();
  }
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? folderEmails(join(path, e.name))
        : Promise.resolve(e.isFile() && e.name.endsWith('.eml') ? [join(path, e.name)] : []),
    ),
  );
  return nested.flat().sort();
}

/** Counts per kind, per BNAC class and per backoff class, printed at the end */
class Tally {
  readonly kinds = new Map<string, number>();
  readonly bnac = new Map<string, number>();
  readonly backoff = new Map<string, number>();

  add(answer: BounceAnswer | undefined): void {
    bump(this.kinds, answer?.kind ?? 'error');
    for (const r of answer?.recipients ?? []) {
      if (r.bnac) bump(this.bnac, r.bnac.class);
      if (r.backoff) bump(this.backoff, r.backoff.class);
    }
  }

  table(): string {
    const section = (title: string, unit: string, counts: Map<string, number>) => {
      const rows = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const width = Math.max(title.length, ...rows.map(([name]) => name.length)) + 2;
      return [
        `${title.padEnd(width)}${unit}`,
        ...rows.map(([name, n]) => `${name.padEnd(width)}${String(n).padStart(unit.length)}`),
      ].join('\n');
    };
    return [
      section('kind', 'emails', this.kinds),
      section('bnac class', 'recipients', this.bnac),
      section('backoff class', 'recipients', this.backoff),
    ].join('\n\n');
  }
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** A one-line bar redrawn in place, at most every 100 ms; nothing when the stream is not a terminal */
function progress(stderr: Output, total: number): { tick(done: number): void; end(): void } {
  if (!stderr.isTTY) return { tick() {}, end() {} };
  let last = 0;
  const draw = (done: number) => {
    const filled = Math.round((done / Math.max(total, 1)) * 30);
    stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${done}/${total} emails`);
  };
  return {
    tick(done) {
      const now = performance.now();
      if (now - last < 100 && done < total) return;
      last = now;
      draw(done);
    },
    end: () => stderr.write('\r\x1b[2K'),
  };
}

function plainLines(file: string, answer: BounceAnswer, explain: boolean): string[] {
  if (answer.recipients.length === 0) return [`${file}\t${answer.kind}`];
  return answer.recipients.map((r) => {
    const columns = [file, answer.kind, r.recipient, r.bnac?.class ?? '', r.backoff?.class ?? '', r.reply ?? ''];
    if (explain) columns.push(explanationColumn(r.bnac?.explanation), explanationColumn(r.backoff?.explanation));
    return columns.join('\t');
  });
}

/**
 * `capstan classify --email [--json] FILE|FOLDER...`, its options parsed by the classify command: answers the exit
 * code (0 done, 1 a file could not be read as an email, 2 usage error). Writes results to `stdout`, the progress bar
 * and errors to `stderr`.
 */
export async function classifyEmailCommand(
  positionals: string[],
  values: { json: boolean; explain?: boolean; help?: boolean },
  stdout: Output,
  stderr: Output,
  useClassifier: () => Promise<CommandService<Classifier>>,
): Promise<number> {
  if (values.help) {
    stdout.write(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    stderr.write(`capstan classify: --email needs at least one FILE or FOLDER\n\n${USAGE}`);
    return 2;
  }
  let files: EmailFile[];
  try {
    files = (await Promise.all(positionals.map(emailFiles))).flat();
  } catch (error) {
    stderr.write(`capstan classify: ${(error as Error).message}\n`);
    return 2;
  }
  const plugin = await useClassifier();
  const deps = { classifier: plugin.service, normalise: normaliserOf(plugin.service) };
  const tally = new Tally();
  const bar = progress(stderr, files.length);
  const clearBar = stderr.isTTY ? '\r\x1b[2K' : '';
  let failures = 0;
  const write = (entries: Entry[], answers: BounceAnswer[]) => {
    const lines: string[] = [];
    let next = 0;
    for (const { file, report } of entries) {
      const answer = report instanceof Error ? undefined : answers[next++]!;
      tally.add(answer);
      if (!answer) {
        failures += 1;
        if (values.json) lines.push(JSON.stringify({ file, error: (report as Error).message }));
        else stderr.write(`${clearBar}capstan classify: ${file}: ${(report as Error).message}\n`);
      } else if (values.json) lines.push(JSON.stringify({ file, ...answer }));
      else lines.push(...plainLines(file, answer, values.explain === true));
    }
    if (lines.length > 0) stdout.write(`${lines.join('\n')}\n`);
  };
  try {
    // Entries come one email at a time (an mbox streamed): a batch of them is classified, written and let go
    let batch: Entry[] = [];
    const flush = async () => {
      const read = batch.map((e) => e.report).filter((r): r is BounceReport => !(r instanceof Error));
      write(batch, await classifyReports(deps, read, { useCache: false, explain: values.explain === true }));
      batch = [];
    };
    for (const [i, file] of files.entries()) {
      for await (const entry of readReports(file)) {
        batch.push(entry);
        if (batch.length >= BATCH) await flush();
      }
      bar.tick(i + 1);
    }
    await flush();
    bar.end();
    if (!values.json) stdout.write(`\n${tally.table()}\n`);
    return failures > 0 ? 1 : 0;
  } finally {
    await plugin.close();
  }
}

/** One email read: where it is (`FILE`, or `FILE#N` for an mbox's Nth message) and its report, or why it is none */
interface Entry {
  file: string;
  report: BounceReport | Error;
}

/**
 * One file's reports: its email's, or, for an mbox (a file whose first line is a `From ` separator), each message's,
 * streamed and labelled `FILE#N` from 1 when there are several; or the reason the file is not one. An mbox may be of
 * any size; a single email or an mbox message over the limit is refused, by its number.
 */
async function* readReports(file: EmailFile): AsyncGenerator<Entry> {
  let head: Buffer;
  let size: number;
  try {
    size = file.size ?? (await stat(file.path)).size;
    const handle = await open(file.path);
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(5), 0, 5, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    yield { file: file.path, report: error as Error };
    return;
  }
  if (!isMbox(head)) {
    if (size > MAX_FILE_BYTES)
      yield { file: file.path, report: new Error(`File is larger than the limit of ${MAX_FILE_BYTES} bytes`) };
    else yield { file: file.path, report: await readFile(file.path).then(reportOf, (error: Error) => error) };
    return;
  }
  // The first message is held until a second shows whether the file has several (then it is `FILE#1`)
  let first: MboxMessage | undefined;
  const entry = (message: MboxMessage, label: string): Promise<Entry> =>
    message.oversize
      ? Promise.resolve({
          file: label,
          report: new Error(`Message ${message.number} is larger than the limit of ${MAX_FILE_BYTES} bytes: skipped`),
        })
      : reportOf(message.bytes).then((report) => ({ file: label, report }));
  try {
    for await (const message of mboxMessages(
      createReadStream(file.path, { highWaterMark: 1024 * 1024 }),
      MAX_FILE_BYTES,
    )) {
      if (message.number === 1) {
        first = message;
        continue;
      }
      if (first) {
        yield await entry(first, `${file.path}#1`);
        first = undefined;
      }
      yield await entry(message, `${file.path}#${message.number}`);
    }
  } catch (error) {
    yield { file: file.path, report: error as Error };
    return;
  }
  // A single message with a `From ` line before its headers is one email, named as its file
  if (first) yield await entry(first, file.path);
}

async function reportOf(raw: Buffer): Promise<BounceReport | Error> {
  try {
    return await parseBounce(raw);
  } catch (error) {
    return error as Error;
  }
}
