/**
 * The contract emitter: spec/contracts/*.yaml → generated/contracts/ (the interface, the types its members name and the
 * table the host checks a service with). A golden pair for a fixture spec and the spec errors it names; drift of
 * generated/, contracts included, is generate.test.ts's.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { generate } from '../../scripts/generate.ts';
import { generatorError } from './_generator-error.ts';
import { tempDir } from '../host/_fixtures.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'contract');

/** The fixture copied to a fresh folder with `edit` applied to its contract's text */
function edited(edit: (text: string) => string): string {
  const copy = tempDir();
  cpSync(FIXTURE, copy, { recursive: true });
  const file = join(copy, 'spec/contracts/lamp.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return copy;
}

test('generate emits a contract as its interface, named types and host table, as the golden files hold', async () => {
  const files = new Map((await generate(FIXTURE)).map((f) => [f.path, f.contents]));
  for (const path of ['contracts/lamp.ts', 'contracts.ts']) {
    const want = readFileSync(join(FIXTURE, 'want', `${path}.golden`), 'utf8');
    assert.fixture(files.get(path) ?? `(no ${path})`, want, path);
  }
});

test('generate names the file and pointer of a contract $ref that does not resolve', async () => {
  const root = edited((text) => text.replace("'#/components/schemas/ToggleOptions'", "'#/components/schemas/Missing'"));
  assert.is(
    await generatorError(root),
    'spec/contracts/lamp.yaml#/methods/toggle/parameters/1/schema/$ref: unresolved $ref "#/components/schemas/Missing"',
  );
});

test('generate reads a $ref that is not a string as a property name, as it does in OpenAPI documents', async () => {
  const root = edited((text) =>
    text.replace(
      '          x-ts-type: AbortSignal\n',
      '          x-ts-type: AbortSignal\n        $ref: { type: string }\n',
    ),
  );
  const lamp = (await generate(root)).find((f) => f.path === 'contracts/lamp.ts')?.contents ?? '';
  assert.match(lamp, /^  \$ref\?: string;$/m);
});

test('generate rejects a required parameter after an optional one, and a property schema with $ref', async () => {
  const late = edited((text) =>
    text.replace(
      "schemas/ToggleOptions' }\n",
      "schemas/ToggleOptions' }\n      - name: force\n        schema: { type: boolean }\n",
    ),
  );
  assert.is(
    await generatorError(late),
    'spec/contracts/lamp.yaml#/methods/toggle/parameters: a required parameter cannot follow an optional one',
  );
  const referring = edited((text) =>
    text.replace('schema: { type: string }', "schema: { $ref: '#/components/schemas/Light' }"),
  );
  assert.is(
    await generatorError(referring),
    'spec/contracts/lamp.yaml#/properties/colour/schema: a property schema cannot use $ref: the host checks it alone',
  );
});

test('generate rejects two contracts holding the same plugin kind', async () => {
  const root = edited((text) => text);
  const lamp = readFileSync(join(root, 'spec/contracts/lamp.yaml'), 'utf8');
  writeFileSync(join(root, 'spec/contracts/torch.yaml'), lamp.replace('contract: Lamp', 'contract: Torch'));
  assert.is(
    await generatorError(root),
    'spec/contracts/torch.yaml#/kind: kind "store" is already held to the contract of spec/contracts/lamp.yaml',
  );
});

test.run();
