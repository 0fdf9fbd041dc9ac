import { header, literal, type Emitted } from './emit.ts';
import { camel, pascal } from './names.ts';
import { pluginConfigType } from './emit-types.ts';
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
    const responses = Object.entries(op.responses).map(
      ([status, schema]) => `${JSON.stringify(status)}: ${table.ref(`${op.operationId}Response${status}`, schema)}`,
    );
    parts.push(`responses: { ${responses.join(', ')} }`);
    rows.push(`  ${JSON.stringify(op.operationId)}: { ${parts.join(', ')} },`);
  }
  const lines = [
    header([api.source]),
    `import type { OperationSchemas } from '../../runtime/core/operation-schemas.ts';`,
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
    const name = `${pascal(schema.name)}Schema`;
    out.push({
      path: `validators/${schema.name}.ts`,
      contents: `${header([schema.source])}\n/** The schema as const; compile it with \`Compile\` from typebox/schema */\nexport const ${name} = ${literal(schema.schema)} as const;\n`,
    });
  }
  for (const plugin of model.plugins) out.push(pluginValidator(plugin.name, plugin.source, plugin.schema));
  out.push(pluginIndex(model));
  return out;
}

/** The name a built-in plugin's config schema is exported under, such as `ipScheduleConfigSchema` */
function pluginSchemaName(id: string): string {
  return `${camel(id)}ConfigSchema`;
}

/** A built-in plugin's config schema as a TypeBox schema typed with its generated config type, for `definePlugin` */
function pluginValidator(id: string, source: string, schema: JsonSchema): Emitted {
  const type = pluginConfigType(id);
  const lines = [
    header([source]),
    `import type { TUnsafe } from 'typebox';`,
    `import type { ${type} } from '../../types/plugins/${id}.ts';\n`,
    `/**`,
    ` * The config schema of the built-in plugin "${id}": \`definePlugin({ config: ${pluginSchemaName(id)} })\`. A plain`,
    ` * JSON Schema typed as TypeBox's \`Unsafe\`, so that \`capstan config check\` reads it without loading TypeBox's builder`,
    ` */`,
    `export const ${pluginSchemaName(id)} = ${literal(schema)} as unknown as TUnsafe<${type}>;`,
    '',
  ];
  return { path: `validators/plugins/${id}.ts`, contents: lines.join('\n') };
}

/** Every built-in plugin's config schema by plugin id: what `capstan config check` reads without loading a plugin */
function pluginIndex(model: GeneratorModel): Emitted {
  const lines = [
    header(model.plugins.map((p) => p.source)),
    ...model.plugins.map((p) => `import { ${pluginSchemaName(p.name)} } from './plugins/${p.name}.ts';`),
    '',
    '/** The config schema of each built-in plugin, by plugin id */',
    'export const builtinPluginSchemas = {',
    ...model.plugins.map((p) => `  ${JSON.stringify(p.name)}: ${pluginSchemaName(p.name)},`),
    '} as const;',
    '',
  ];
  return { path: 'validators/plugins.ts', contents: lines.join('\n') };
}
