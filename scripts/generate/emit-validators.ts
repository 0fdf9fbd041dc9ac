import { camel, header, literal, type Emitted } from './emit.ts';
import type { ApiModel, GeneratorModel, JsonSchema } from './model.ts';

const COMPONENTS = '<components>';

function usesRef(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"$ref"');
}

/** A schema that carries the components its `$ref`s point into, so it compiles alone */
function standalone(schema: JsonSchema): string {
  if (!usesRef(schema)) return literal(schema);
  return literal({ ...schema, components: COMPONENTS }).replace(JSON.stringify(COMPONENTS), 'components');
}

/**
 * Each distinct schema once, as a named const (named after the first operation part that uses it), so that the many
 * operations sharing an error response or a parameter set share one object, compiled once by the host
 */
class SchemaTable {
  readonly #names = new Map<string, string>();
  readonly lines: string[] = [];

  ref(name: string, schema: JsonSchema): string {
    const text = standalone(schema);
    let known = this.#names.get(text);
    if (known === undefined) {
      known = name;
      this.#names.set(text, known);
      this.lines.push(`const ${known} = ${text};\n`);
    }
    return known;
  }
}

function apiValidators(api: ApiModel): Emitted {
  const table = new SchemaTable();
  const rows: string[] = [];
  for (const op of api.operations) {
    const parts: string[] = [];
    if (op.params) parts.push(`params: ${table.ref(`${op.operationId}Params`, op.params)}`);
    if (op.query) parts.push(`query: ${table.ref(`${op.operationId}Query`, op.query)}`);
    if (op.body) parts.push(`body: ${table.ref(`${op.operationId}Body`, op.body.schema)}`);
    const responses = Object.entries(op.responses).map(([status, schema]) => `${JSON.stringify(status)}: ${table.ref(`${op.operationId}Response${status}`, schema)}`);
    parts.push(`responses: { ${responses.join(', ')} }`);
    rows.push(`  ${JSON.stringify(op.operationId)}: { ${parts.join(', ')} },`);
  }
  const lines = [
    header([api.source]),
    `import type { OperationSchemas } from '../../runtime/host/operation-schemas.ts';`,
    `import { documents } from '../openapi.ts';\n`,
    `/** The document's components, which every schema below may reference */`,
    `export const components = documents[${JSON.stringify(api.name)}].components;\n`,
    ...table.lines,
    `/** Request and response schemas per operationId; compiled once at boot with typebox */`,
    `export const operations: Record<string, OperationSchemas> = {`,
    ...rows,
    `};\n`,
  ];
  return { path: `validators/${api.name}.ts`, contents: lines.join('\n') };
}

/** TypeBox-compilable schemas: per operation of each API, and each JSON Schema document as const */
export function emitValidators(model: GeneratorModel): Emitted[] {
  const out = model.apis.map(apiValidators);
  for (const schema of model.schemas) {
    const name = `${camel(schema.name).replace(/^./, (c) => c.toUpperCase())}Schema`;
    out.push({
      path: `validators/${schema.name}.ts`,
      contents: `${header([schema.source])}\n/** The schema as const; compile it with \`Compile\` from typebox/schema */\nexport const ${name} = ${literal(schema.schema)} as const;\n`,
    });
  }
  return out;
}
