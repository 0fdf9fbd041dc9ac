import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../rejects.ts';
import { effective } from '../../runtime/config/effective.ts';
import { loadStartupConfig } from '../../runtime/config/load.ts';
import { importPlugin } from '../../runtime/plugins/loader.ts';
import { validateDocument } from '../../runtime/config/validate.ts';

const dir = new URL('./effective/', import.meta.url);
const inputs = readdirSync(dir)
  .filter((name) => name.includes('.input.'))
  .sort();

for (const input of inputs) {
  const expectedFile = input.replace(/\.input\.\w+$/, '.expected.json');
  test(`effective matches ${expectedFile} when given ${input}`, async () => {
    const { document } = await loadStartupConfig(fileURLToPath(new URL(input, dir)), { loadPlugin: importPlugin });
    assert.equal(document, JSON.parse(readFileSync(new URL(expectedFile, dir), 'utf8')));
    assert.equal(validateDocument(document).errors, [], 'the effective document must stay valid');
  });
}

test('effective leaves its input untouched when filling defaults', () => {
  const input = { version: '6.10' as const, spool: { fsync: false } };
  const output = effective(input);
  assert.equal(input, { version: '6.10', spool: { fsync: false } });
  assert.equal(output.spool, { fsync: false, path: '/var/spool/service/queue', corrupt: 'unlink' });
});

test('loadStartupConfig throws FILE:LINE:COL lines when the file is invalid', async () => {
  const file = fileURLToPath(new URL('../fixtures/config/invalid.yaml', import.meta.url));
  const error = await rejects(
    () => loadStartupConfig(file, { loadPlugin: importPlugin }),
    /:7:9 servers\[0\]\.listeners\[1\]\.port must be at least 1/,
    'loading the file',
  );
  assert.is((error as { code?: string }).code, 'CONFIG_ERR_INVALID');
  assert.ok(error.message.includes(`${file}:7:9`), error.message);
});

test.run();
