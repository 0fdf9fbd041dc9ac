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

function apiValidators(api: ApiModel): Emitted {
  const lines = [
    header([api.source]),
    `import type { OperationSchemas } from '../../runtime/host/operation-schemas.ts';`,
    `import { documents } from '../openapi.ts';\n`,
  ];
  lines.push(`/** The document's components, which every schema below may reference */`);
  lines.push(`export const components = documents[${JSON.stringify(api.name)}].components;\n`);
  lines.push(`/** Request and response schemas per operationId; compiled once at boot with typebox */`);
  lines.push(`export const operations: Record<string, OperationSchemas> = {`);
  for (const op of api.operations) {
    const parts: string[] = [];
    if (op.params) parts.push(`params: ${standalone(op.params)}`);
    if (op.query) parts.push(`query: ${standalone(op.query)}`);
    if (op.body) parts.push(`body: ${standalone(op.body.schema)}`);
    const responses = Object.entries(op.responses).map(([status, s]) => `${JSON.stringify(status)}: ${standalone(s)}`);
    parts.push(`responses: {\n${responses.join(',\n')}\n}`);
    lines.push(`  ${JSON.stringify(op.operationId)}: {\n${parts.join(',\n')}\n},`);
  }
  lines.push(`};\n`);
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
