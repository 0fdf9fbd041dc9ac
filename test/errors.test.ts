/**
 * The error registry: every registered code renders and follows the message style, `docs/errors.md` lists them all,
 * plugins register codes of their own, and the host refuses a code two plugins register.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../runtime/observability/logger.ts';
import { CapstanError, defineErrors, httpError, startHost, usePlugin } from '../runtime/mod.ts';
import { registeredCodes, renderTable, withTable } from '../scripts/errors-doc/table.ts';
import { document, tempDir, writePlugin } from './host/_fixtures.ts';
import { rejects } from './rejects.ts';

// They pass a sentence through unchanged (see docs/errors.md), so there is no template to hold to the style
const PASS_THROUGH = new Set(['HOST_ERR_HTTP', 'HOST_ERR_VALIDATION']);
const codes = await registeredCodes();

/** What is wrong with a template, by the rules of docs/errors.md */
function styleProblems(template: string): string[] {
  const problems: string[] = [];
  if (!/^[A-Z]/.test(template)) problems.push('does not start with a capital letter');
  if (/[.\s]$/.test(template)) problems.push('ends with a period or a space');
  // A value is quoted, or the detail after a colon, or in parentheses around a quoted list
  for (const m of template.matchAll(/%s/g)) {
    const before = template.slice(0, m.index);
    const after = template.slice(m.index + 2);
    const quoted = before.endsWith('"') && after.startsWith('"');
    const detail = /:\s+$/.test(before);
    if (!quoted && !detail) problems.push(`a "%s" at ${m.index} is neither quoted nor the detail after a colon`);
  }
  // Sentence case: after the first word, no capitalised word outside quotes (acronyms such as "API" are fine)
  const words = template
    .replace(/"[^"]*"/g, '""')
    .split(/\s+/)
    .slice(1);
  const capitalised = words.filter((w) => /^[A-Z][a-z]/.test(w));
  if (capitalised.length > 0) problems.push(`capitalised words "${capitalised.join('", "')}"`);
  return problems;
}

test('errors: every registered code renders its template with the values it is given', () => {
  assert.ok(codes.length > 50, 'the host and the built-in plugins register codes');
  for (const entry of codes) {
    const values = [...entry.message.matchAll(/%[sd]/g)].map((m, i) => (m[0] === '%d' ? 7 + i : `value-${i}`));
    const cause = new Error('underneath');
    const error = (entry.create as (...args: unknown[]) => CapstanError)(...values, { cause });
    assert.instance(error, CapstanError);
    assert.is(error.code, entry.code);
    assert.is(error.status, entry.status);
    assert.is(error.expose, entry.expose);
    assert.is(error.cause, cause, `${entry.code} keeps its cause`);
    const want = values.reduce<string>((text, value) => text.replace(/%[sd]/, String(value)), entry.message);
    assert.is(error.message, want);
    assert.not.match(error.message, /%[sd]/, `${entry.code} leaves no placeholder`);
  }
});

test('errors: every template follows the style: sentence case, values in quotes, no final period', () => {
  const broken = codes
    .filter((c) => !PASS_THROUGH.has(c.code))
    .flatMap((c) => styleProblems(c.message).map((p) => `${c.code}: ${p}`));
  assert.equal(broken, []);
  assert.equal(styleProblems('Cannot load Plugin %s.'), [
    'ends with a period or a space',
    'a "%s" at 19 is neither quoted nor the detail after a colon',
    'capitalised words "Plugin"',
  ]);
});

test('errors: codes are unique across the host and the built-in plugins', () => {
  const seen = new Map<string, string>();
  const twice = codes
    .filter((c) => seen.has(c.code) || !seen.set(c.code, c.owner))
    .map((c) => `${c.code} (${seen.get(c.code)}, ${c.owner})`);
  assert.equal(twice, []);
});

test('errors: docs/errors.md lists every registered code (npm run errors-doc)', () => {
  const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  assert.fixture(doc, withTable(doc, renderTable(codes)));
});

test('errors: a factory of defineErrors makes the coded error from the values, with cause', () => {
  const errors = defineErrors({
    DEMO_ERR_NOT_FOUND: { status: 404, expose: true, message: 'Thing "%s" not found: %d of them known' },
  });
  const cause = new Error('underneath');
  const error = errors.DEMO_ERR_NOT_FOUND('x', 3, { cause });
  assert.instance(error, CapstanError);
  assert.is(error.message, 'Thing "x" not found: 3 of them known');
  assert.is(error.code, 'DEMO_ERR_NOT_FOUND');
  assert.is(error.status, 404);
  assert.is(error.expose, true);
  assert.is(error.cause, cause);
  assert.is(errors.DEMO_ERR_NOT_FOUND.code, 'DEMO_ERR_NOT_FOUND');
  assert.is(errors.DEMO_ERR_NOT_FOUND.message, 'Thing "%s" not found: %d of them known');
});

test('errors: a code with retryAfter gives it to its errors, which the host sends as Retry-After', () => {
  const errors = defineErrors({ DEMO_ERR_DOWN: { status: 503, expose: true, retryAfter: 7, message: 'Down' } });
  assert.is(errors.DEMO_ERR_DOWN().retryAfter, 7);
  assert.is(errors.DEMO_ERR_DOWN.retryAfter, 7);
  assert.is(
    defineErrors({ DEMO_ERR_UP: { status: 500, expose: false, message: 'Up' } }).DEMO_ERR_UP().retryAfter,
    undefined,
  );
});

test('errors: defineErrors refuses a host code and a malformed code or entry', () => {
  assert.throws(
    () => defineErrors({ HOST_ERR_NOT_FOUND: { status: 404, expose: true, message: 'Mine' } }),
    /Invalid error code "HOST_ERR_NOT_FOUND": the host has a code of that name/,
  );
  assert.throws(
    () => defineErrors({ notFound: { status: 404, expose: true, message: 'Mine' } }),
    /Invalid error code "notFound": codes are upper case/,
  );
  assert.throws(
    () => defineErrors({ DEMO_ERR_X: { status: 200, expose: true, message: 'Mine' } }),
    /Invalid error code "DEMO_ERR_X": "status" must be an HTTP error status/,
  );
  assert.throws(
    () => defineErrors({ DEMO_ERR_X: { status: 503, expose: true, message: 'Mine', retryAfter: 0.5 } }),
    /Invalid error code "DEMO_ERR_X": "retryAfter" must be a whole number of seconds/,
  );
});

test('errors: codes of plugin API 1.0 and 1.1 thrown the 1.0 way keep their status and exposure', () => {
  const cases: [string, number, boolean][] = [
    ['STORE_ERR_CONFLICT', 409, true],
    ['HOST_ERR_BAD_REQUEST', 400, true],
    ['HOST_ERR_UNAUTHORIZED', 401, true],
    ['HOST_ERR_UNAVAILABLE', 503, true],
    ['STORE_ERR_IO', 500, false],
  ];
  for (const [code, status, expose] of cases) {
    const error = new CapstanError(code, 'Taken');
    assert.equal([error.status, error.expose], [status, expose], code);
  }
});

test('errors: httpError, the ad-hoc form, keeps its status and shows 4xx messages only', () => {
  assert.is(httpError(409, 'Taken').status, 409);
  assert.is(httpError(409, 'Taken').expose, true);
  assert.is(httpError(503, 'Busy').expose, true);
  assert.is(httpError(500, 'Secret').expose, false);
  assert.is(httpError(400, 'Bad').code, 'HOST_ERR_HTTP');
});

const dir = tempDir();
/** A store plugin registering `code` */
const codePlugin = (name: string, code: string) =>
  writePlugin(dir, name, {
    'mod.ts': `import { defineErrors, definePlugin, Type } from '@capstan';
const errors = defineErrors({ ${code}: { status: 409, expose: true, message: 'Taken by "%s"' } });
export default definePlugin({
  id: '${name}',
  kind: 'store',
  apiVersion: '^1.2.0',
  config: Type.Object({}),
  errors,
  setup: () => ({ service: { fail: () => { throw errors.${code}('${name}'); } } }),
});
`,
  });
const log = createLogger({ service: 'test', write: () => {} });

test('errors: the host refuses a code that two plugins register, naming both', async () => {
  const first = codePlugin('first-store', 'DEMO_ERR_TAKEN');
  const second = codePlugin('second-store', 'DEMO_ERR_TAKEN');
  const doc = document([
    { id: 'a', path: first },
    { id: 'b', path: second },
  ]);
  const start = async () => {
    const host = await startHost(doc, { baseDir: dir, ephemeralPorts: true, log });
    await host.close();
  };
  await rejects(
    start,
    /^Cannot load plugin "b": error code "DEMO_ERR_TAKEN" is already registered by plugin "a"$/,
    'starting the host',
  );
});

test('errors: two instances of one plugin share its codes', async () => {
  const store = codePlugin('shared-store', 'DEMO_ERR_SHARED');
  const host = await startHost(
    document([
      { id: 'one', path: store },
      { id: 'two', path: store },
    ]),
    { baseDir: dir, ephemeralPorts: true, log },
  );
  await host.close();
  const used = await usePlugin<{ fail(): void }>({ id: 'solo', path: store });
  try {
    assert.throws(
      () => used.service.fail(),
      (error: CapstanError) => error.code === 'DEMO_ERR_SHARED' && error.message === 'Taken by "shared-store"',
    );
  } finally {
    await used.close();
  }
});

test.run();
