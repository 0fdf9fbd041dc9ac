/**
 * `capstan classify --email` as a process: files, a maildir and a folder of .eml files, plain output with its closing
 * table, `--json` lines, exit codes; and the progress bar, drawn only when stderr is a terminal.
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { usePlugin } from '../../runtime/mod.ts';
import type { Classifier } from '../../runtime/mod.ts';
import { classifyEmailCommand, MAX_FILE_BYTES } from '../../plugins/bounce-classifier/email-command.ts';
import { CLI, runCli as capstan } from '../host/_fixtures.ts';

const FIXTURES = fileURLToPath(new URL('../../plugins/bounce-classifier/email/fixtures/', import.meta.url));

/** A maildir holding three fixtures in cur/ and new/, and a file in tmp/ that a maildir reader must skip */
function maildir(): string {
  const root = mkdtempSync(join(tmpdir(), 'capstan-maildir-'));
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(root, sub));
  copyFileSync(join(FIXTURES, 'exim.eml'), join(root, 'cur', '1762000000.M1P1.host:2,S'));
  copyFileSync(join(FIXTURES, 'ses-bounce.eml'), join(root, 'cur', '1762000001.M2P1.host:2,S'));
  copyFileSync(join(FIXTURES, 'vacation-rfc3834.eml'), join(root, 'new', '1762000002.M3P1.host'));
  writeFileSync(join(root, 'tmp', '1762000003.M4P1.host'), 'half written');
  return root;
}

test('classify --email reads a maildir and prints recipients, then counts per kind and class', async () => {
  const root = maildir();
  try {
    const { code, stdout, stderr } = await capstan(['classify', '--email', root]);
    assert.is(code, 0, stderr);
    assert.not.match(stderr, /\r/, 'no progress bar when stderr is not a terminal');
    const [lines, ...tables] = stdout.trim().split('\n\n');
    const rows = lines!.split('\n').map((line) => line.split('\t'));
    assert.equal(
      rows.map((r) => r.slice(1, 5)),
      [
        ['failed', 'rui@fields.example.net', 'RECIPIENT_NOT_FOUND', 'RECIPIENT_ERROR'],
        ['failed', 'tess@fields.example.net', 'VIRUS', 'CONTENT_REJECTED_VIRUS'],
        ['failed', 'vera@dest.example.net', 'RECIPIENT_NOT_FOUND', 'RECIPIENT_ERROR'],
        ['failed', 'ken@dest.example.net', 'RECIPIENT_ERROR', 'MAILBOX_FULL'],
        ['auto-reply'],
      ],
    );
    assert.match(tables[0]!, /^kind\s+emails\nfailed\s+2\nauto-reply\s+1$/);
    assert.match(tables[1]!, /^bnac class\s+recipients\nRECIPIENT_NOT_FOUND\s+2\nRECIPIENT_ERROR\s+1\nVIRUS\s+1$/);
    assert.match(tables[2]!, /^backoff class\s+recipients\nRECIPIENT_ERROR\s+2\n/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('classify --email --json writes one line per email of a folder, and exits 1 when a file is not an email', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'capstan-emails-'));
  try {
    copyFileSync(join(FIXTURES, 'postfix-two-recipients.eml'), join(folder, 'a.eml'));
    mkdirSync(join(folder, 'more'));
    copyFileSync(join(FIXTURES, 'arf-feedback.eml'), join(folder, 'more', 'b.eml'));
    writeFileSync(join(folder, 'c.eml'), 'not an email at all');
    writeFileSync(join(folder, 'notes.txt'), 'skipped: not .eml');
    const { code, stdout } = await capstan(['classify', '--email', '--json', folder]);
    assert.is(code, 1);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(
      lines.map((l) => [l.file.slice(folder.length + 1), l.kind ?? l.error]),
      [
        ['a.eml', 'failed'],
        ['c.eml', 'Body is not an email: it does not start with a header line'],
        [join('more', 'b.eml'), 'feedback'],
      ],
    );
    assert.equal(
      lines[0].recipients.map((r: any) => r.bnac.class),
      ['RECIPIENT_ERROR', 'BLOCK_LIST'],
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('classify --email --json reads an mbox file as its messages, FILE#N each', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'capstan-mbox-'));
  try {
    const message = (name: string) => readFileSync(join(FIXTURES, name), 'latin1');
    const mbox = join(folder, 'bounces');
    writeFileSync(
      mbox,
      [
        'From MAILER-DAEMON Thu Nov 26 10:00:00 2026',
        message('qmail.eml'),
        '',
        'From MAILER-DAEMON Thu Nov 26 10:01:00 2026',
        message('exim.eml'),
        '',
        'From ann@example.org Thu Nov 26 10:02:00 2026',
        message('not-a-bounce.eml').replace(/\n\n/, '\n\n>From the desk of Ann\n'),
        '',
      ].join('\n'),
      'latin1',
    );
    const { code, stdout, stderr } = await capstan(['classify', '--email', '--json', mbox]);
    assert.is(code, 0, stderr);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(
      lines.map((l) => [l.file.slice(folder.length + 1), l.kind, l.recipients.length]),
      [
        ['bounces#1', 'failed', 2],
        ['bounces#2', 'failed', 2],
        ['bounces#3', 'not-a-bounce', 0],
      ],
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('classify --email streams an mbox: a separator across read chunks splits, a broken message is named by number', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'capstan-mbox-'));
  try {
    const first = readFileSync(join(FIXTURES, 'qmail.eml'), 'latin1');
    // The file is read in 1 MiB chunks: padding puts the blank line and `From ` of the second separator across one
    const pad = 1024 * 1024 - 3 - Buffer.byteLength(`From a Thu Nov 26 10:00:00 2026\n${first}`, 'latin1');
    const padded = `${first.trimEnd()}\n${'x'.repeat(76)}\n`.padEnd(first.length + pad, 'y');
    const mbox = join(folder, 'big');
    writeFileSync(
      mbox,
      `From a Thu Nov 26 10:00:00 2026\n${padded}\n\nFrom b Thu Nov 26 10:01:00 2026\nno header here\n\nFrom c Thu Nov 26 10:02:00 2026\n${readFileSync(join(FIXTURES, 'exim.eml'), 'latin1')}`,
      'latin1',
    );
    const { code, stdout } = await capstan(['classify', '--email', '--json', mbox]);
    assert.is(code, 1, 'a message that is not an email fails the run');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(
      lines.map((l) => [l.file.slice(folder.length + 1), l.kind ?? l.error]),
      [
        ['big#1', 'failed'],
        ['big#2', 'Body is not an email: it does not start with a header line'],
        ['big#3', 'failed'],
      ],
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

/** A CLI run with the child's peak resident memory (VmHWM, MiB), read from /proc while it runs */
async function withPeak(args: string[]): Promise<{ code: number | null; stdout: string; peak: number }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  let peak = 0;
  const sample = setInterval(() => {
    const status = existsSync(`/proc/${child.pid}/status`) ? readFileSync(`/proc/${child.pid}/status`, 'utf8') : '';
    peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  }, 10);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearInterval(sample);
  return { code, stdout, peak };
}

test('classify --email skips an mbox message over the size limit as it streams by, holding none of it', async () => {
  if (!existsSync('/proc/self/status')) return console.log("skipped: no /proc to read a process's memory from");
  const folder = mkdtempSync(join(tmpdir(), 'capstan-mbox-'));
  try {
    const exim = readFileSync(join(FIXTURES, 'exim.eml'), 'latin1');
    const mbox = join(folder, 'over');
    // Sparse: the first message runs on in zero bytes past the limit, then a second message follows
    writeFileSync(mbox, `From a Thu Nov 26 10:00:00 2026\n${exim}\n`, 'latin1');
    truncateSync(mbox, MAX_FILE_BYTES + 4096);
    appendFileSync(mbox, `\n\nFrom b Thu Nov 26 10:01:00 2026\n${exim}`, 'latin1');
    const one = await withPeak(['classify', '--email', '--json', join(FIXTURES, 'exim.eml')]);
    const over = await withPeak(['classify', '--email', '--json', mbox]);
    assert.is(over.code, 1, 'a skipped message fails the run');
    assert.equal(
      over.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((l) => [l.file.slice(folder.length + 1), l.kind ?? l.error]),
      [
        ['over#1', `Message 1 is larger than the limit of ${MAX_FILE_BYTES} bytes: skipped`],
        ['over#2', 'failed'],
      ],
    );
    // Holding the message (64 MiB) and unquoting it costs three copies; streaming past it costs read chunks only
    const limit = (3 * MAX_FILE_BYTES) / 1024 / 1024;
    assert.ok(
      over.peak - one.peak < limit,
      `peak ${over.peak.toFixed(0)} MiB vs ${one.peak.toFixed(0)} MiB for one email`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('classify --email takes the command\'s other options in any order, and a message that reads "--email" after --', async () => {
  const mixed = await capstan(['classify', '--model', 'backoff', '--email', '--json', join(FIXTURES, 'exim.eml')]);
  assert.is(mixed.code, 0, mixed.stderr);
  assert.is(JSON.parse(mixed.stdout.trim()).kind, 'failed');
  const text = await capstan(['classify', '--', '--email']);
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /^[A-Z_]+\t[01](\.\d+)?\n$/);
});

test('classify --email exits 2 without a file, or when a path does not exist', async () => {
  const none = await capstan(['classify', '--email']);
  assert.is(none.code, 2);
  assert.match(none.stderr, /--email needs at least one FILE or FOLDER/);
  const missing = await capstan(['classify', '--email', '/no/such/folder']);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /no such file or directory/);
});

test('classify --email does not read a file over the size limit, named or found in a folder, and exits 1', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'capstan-emails-'));
  try {
    mkdirSync(join(folder, 'inbox'));
    // Sparse: the limit is checked before reading, so the bytes need not be on disk
    for (const file of ['named.eml', join('inbox', 'found.eml')]) {
      writeFileSync(join(folder, file), '');
      truncateSync(join(folder, file), MAX_FILE_BYTES + 1);
    }
    copyFileSync(join(FIXTURES, 'exim.eml'), join(folder, 'inbox', 'ok.eml'));
    const { code, signal, stdout, stderr } = await capstan([
      'classify',
      '--email',
      '--json',
      join(folder, 'named.eml'),
      join(folder, 'inbox'),
    ]);
    // A process that ends on a signal has no exit code: say which, should one end it (runtime/pool/worker-entry.cjs)
    assert.is(code, 1, `exit code ${code}, signal ${signal}, stderr ${JSON.stringify(stderr)}`);
    const tooLarge = `File is larger than the limit of ${MAX_FILE_BYTES} bytes`;
    assert.equal(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((l) => [l.file.slice(folder.length + 1), l.kind ?? l.error]),
      [
        ['named.eml', tooLarge],
        [join('inbox', 'found.eml'), tooLarge],
        [join('inbox', 'ok.eml'), 'failed'],
      ],
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('classify --email draws a progress bar when stderr is a terminal', async () => {
  let out = '';
  let err = '';
  const code = await classifyEmailCommand(
    [join(FIXTURES, 'exim.eml'), join(FIXTURES, 'qmail.eml')],
    { json: true },
    { write: (t: string) => (out += t) },
    { write: (t: string) => (err += t), isTTY: true },
    () => usePlugin<Classifier>({ id: 'bounce-model' }),
  );
  assert.is(code, 0);
  assert.match(err, /\r\[#{30}\] 2\/2 emails/);
  assert.is(out.trim().split('\n').length, 2);
});

test.run();
