import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { builtinPluginSchemas } from '../../generated/validators/plugins.ts';
import { KNOWN_KEYWORDS } from '../../runtime/config/explain.ts';
import { formatPath } from '../../runtime/config/path.ts';
import { documentValidator, startupConfigSchema } from '../../runtime/config/schema.ts';
import { validateDocument } from '../../runtime/config/validate.ts';

// `warnings` lists the paths warned about; a case without it expects none.
type Case = {
  name: string;
  document: unknown;
  valid: boolean;
  errors?: { path: string }[];
  warnings?: { path: string }[];
};

const dir = new URL('./cases/', import.meta.url);
const groups = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort();
const cases = groups.flatMap((file) =>
  (JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Case[]).map((c) => ({ ...c, file })),
);

// ajv is the reference implementation of JSON Schema 2020-12: the schema must mean the same in both.
const ajv = new Ajv2020({ strict: false, allErrors: false });
const reference = ajv.compile(startupConfigSchema);

for (const c of cases) {
  test(`${c.file}: "${c.name}" is ${c.valid ? 'accepted' : 'rejected'}`, () => {
    const { errors, warnings } = validateDocument(c.document);
    const shown = [...errors, ...warnings].map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('\n');
    assert.is(errors.length === 0, c.valid, `document: ${JSON.stringify(c.document)}\nissues:\n${shown}`);
    if (c.errors)
      assert.equal(errors.map((issue) => formatPath(issue.path)).sort(), c.errors.map((e) => e.path).sort(), shown);
    assert.equal(
      warnings.map((issue) => formatPath(issue.path)).sort(),
      (c.warnings ?? []).map((w) => w.path).sort(),
      shown,
    );
  });
}

test('conformance table has a valid and an invalid case when counted per group', () => {
  assert.ok(cases.length > 100, `only ${cases.length} cases`);
  for (const group of groups) {
    const mine = cases.filter((c) => c.file === group);
    assert.ok(mine.some((c) => c.valid) && mine.some((c) => !c.valid), group);
  }
});

test('compiled validator agrees with ajv when run on every case document', () => {
  for (const c of cases) assert.is(documentValidator().Check(c.document), reference(c.document), c.name);
});

/** The keywords of a schema the explainer does not know; `extra` are keywords it may skip (they carry no rule) */
function unknownKeywords(schema: unknown, extra: string[] = []): string[] {
  const unknown = new Set<string>();
  const visit = (node: unknown, inData: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, inData));
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      // Values of these keywords are data or maps of names, not schema keywords.
      if (inData) visit(value, false);
      else if (extra.includes(key)) continue;
      else if (!KNOWN_KEYWORDS.has(key)) unknown.add(key);
      else if (!['const', 'enum', 'default', 'x-hints', 'x-message', 'x-warnings', 'required'].includes(key))
        visit(value, key === 'properties' || key === '$defs');
    }
  };
  visit(schema, false);
  return [...unknown];
}

test('explainer understands every keyword when walking the schema', () => {
  assert.equal(unknownKeywords(startupConfigSchema), []);
});

test("explainer understands every keyword of the built-in plugins' config schemas", () => {
  // x-kind and x-service describe the plugin for the linter's reference checks; they hold no rule of the value
  for (const [id, schema] of Object.entries(builtinPluginSchemas))
    assert.equal(unknownKeywords(schema, ['x-kind', 'x-service']), [], id);
});

test.run();
