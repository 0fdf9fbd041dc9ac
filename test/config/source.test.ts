import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseSource } from '../../runtime/config/source.ts';

const yaml = [
  'version: "6.10"', // 1
  'servers:', // 2
  '  - id: inbound', // 3
  '    listeners:', // 4
  '      - port: 25', // 5
  '      - { port: 0, backlog: 5 }', // 6
  'spool:', // 7
  '  paths: []', // 8
].join('\n');

test('locate points at the property name when the path ends in a key', () => {
  const source = parseSource(yaml, false);
  assert.equal(source.locate(['servers', 0, 'listeners', 0, 'port']), { line: 5, column: 9 });
  assert.equal(source.locate(['servers', 0, 'id']), { line: 3, column: 5 });
});

test('locate points inside a flow mapping when the key is written inline', () => {
  const source = parseSource(yaml, false);
  assert.equal(source.locate(['servers', 0, 'listeners', 1, 'backlog']), { line: 6, column: 20 });
});

test('locate points at the item when the path ends in an index', () => {
  const source = parseSource(yaml, false);
  assert.equal(source.locate(['servers', 0, 'listeners', 1]), { line: 6, column: 9 });
});

test('locate falls back to the nearest existing node when the property is missing', () => {
  const source = parseSource(yaml, false);
  assert.equal(source.locate(['spool', 'path']), { line: 7, column: 1 });
  assert.equal(source.locate(['servers', 0, 'type']), { line: 3, column: 5 });
  assert.equal(source.locate([]), { line: 1, column: 1 });
});

test('locate works on JSON text when the document is JSON', () => {
  const source = parseSource('{\n  "version": "6.10",\n  "servers": [\n    {"id": "a"}\n  ]\n}\n', true);
  assert.equal(source.locate(['servers', 0, 'id']), { line: 4, column: 6 });
});

test('parseSource reports a YAML syntax error with its position when the text is broken', () => {
  const source = parseSource('version: "6.10"\nservers:\n  - id: a\n   bad: [1,\n', false);
  assert.ok(source.syntaxErrors.length > 0);
  assert.is(source.value, undefined);
  assert.match(source.syntaxErrors[0].message, /^invalid YAML: /);
});

test('parseSource reports a duplicate key when a YAML mapping repeats one', () => {
  const source = parseSource('version: "6.10"\nversion: "6.10"\n', false);
  assert.equal(
    source.syntaxErrors.map((e) => [e.line, e.column]),
    [[2, 1]],
  );
});

test('parseSource rejects a trailing comma with line and column when the file is JSON', () => {
  const source = parseSource('{\n  "version": "6.10",\n}\n', true);
  assert.equal(
    source.syntaxErrors.map(({ line, column }) => ({ line, column })),
    [{ line: 3, column: 1 }],
  );
  assert.match(source.syntaxErrors[0].message, /^invalid JSON: /);
});

test('parseSource reads YAML 1.2 octal-looking modes as numbers when unquoted', () => {
  assert.equal(parseSource('chmod: 0660\n', false).value, { chmod: 660 });
});

test.run();
