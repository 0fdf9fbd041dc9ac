import { header, literal, type Emitted } from './emit.ts';
import { camel, pascal } from './names.ts';
import { parseRef, type ContractModel, type MethodModel, type PropertyModel } from './model-contracts.ts';
import type { GeneratorModel, JsonSchema } from './model.ts';

const WIDTH = 120;

/** The words of a text, code in backticks kept whole (spaces included) so that a reader can copy it from one line */
function words(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(' ')) {
    const open = (out.at(-1)?.split('`').length ?? 1) % 2 === 0;
    if (open) out[out.length - 1] += ` ${word}`;
    else out.push(word);
  }
  return out;
}

/** A JSDoc comment at `indent`, on one line when it fits, else wrapped at the line limit */
function jsdoc(text: string | undefined, indent = ''): string[] {
  if (!text) return [];
  const flat = text.replace(/\s+/g, ' ');
  if (indent.length + flat.length + 7 <= WIDTH) return [`${indent}/** ${flat} */`];
  const lines: string[] = [];
  let line = '';
  for (const word of words(flat)) {
    if (line !== '' && indent.length + 3 + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

/** A member key as written in a type: bare when it is an identifier */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** Wraps a union or function type that another operator binds to */
function grouped(type: string): string {
  return type.includes(' | ') || type.includes('=>') || type.includes(' & ') ? `(${type})` : type;
}

/**
 * Prints JSON Schema as TypeScript types, recording the imports the `$ref`s need. `x-ts-type` gives a type JSON
 * Schema cannot state (an `AbortSignal`, a callback); arrays in parameter position are `readonly`
 */
class TypePrinter {
  /** OpenAPI documents referenced, by name */
  readonly openapi = new Set<string>();
  /** Names imported from sibling contracts, by contract */
  readonly siblings = new Map<string, Set<string>>();

  type(schema: JsonSchema, readonly = false): string {
    const s = schema as Record<string, any>;
    if (typeof s['x-ts-type'] === 'string') return s['x-ts-type'];
    if (typeof s.$ref === 'string') return this.#ref(s.$ref);
    if ('const' in s) return JSON.stringify(s.const);
    if (Array.isArray(s.enum)) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
    if (Array.isArray(s.oneOf ?? s.anyOf))
      return (s.oneOf ?? s.anyOf).map((m: JsonSchema) => grouped(this.type(m))).join(' | ');
    if (Array.isArray(s.allOf)) return s.allOf.map((m: JsonSchema) => grouped(this.type(m))).join(' & ');
    if (Array.isArray(s.type)) return s.type.map((t: string) => this.type({ ...s, type: t })).join(' | ');
    switch (s.type) {
      case 'string':
      case 'boolean':
      case 'null':
        return s.type;
      case 'number':
      case 'integer':
        return 'number';
      case 'array':
        return `${readonly ? 'readonly ' : ''}${grouped(this.type(s.items ?? {}))}[]`;
      case 'object':
        if (s.properties) return `{ ${this.members(s).join('; ')} }`;
        return `Record<string, ${typeof s.additionalProperties === 'object' ? this.type(s.additionalProperties) : 'unknown'}>`;
      default:
        return 'unknown';
    }
  }

  /** The members of an object schema, inline (`a: T`) */
  members(schema: Record<string, any>): string[] {
    const required: string[] = schema.required ?? [];
    return Object.entries<JsonSchema>(schema.properties ?? {}).map(
      ([name, value]) => `${key(name)}${required.includes(name) ? '' : '?'}: ${this.type(value)}`,
    );
  }

  #ref(ref: string): string {
    const target = parseRef(ref)!;
    if (target.in === 'self') return target.name;
    if (target.in === 'contract') {
      const names = this.siblings.get(target.file) ?? new Set();
      this.siblings.set(target.file, names.add(target.name));
      return target.name;
    }
    this.openapi.add(target.file);
    return `${pascal(target.file)}Components['schemas']['${target.name}']`;
  }
}

/** An interface body: one member per property, each with its doc line */
function interfaceBody(printer: TypePrinter, schema: Record<string, any>): string[] {
  const required: string[] = schema.required ?? [];
  return Object.entries<Record<string, any>>(schema.properties ?? {}).flatMap(([name, value]) => [
    ...jsdoc(value.description, '  '),
    `  ${key(name)}${required.includes(name) ? '' : '?'}: ${printer.type(value)};`,
  ]);
}

/** A named schema: an interface for an object (extending the one `allOf` names first), else a type alias */
function component(printer: TypePrinter, name: string, schema: Record<string, any>): string[] {
  const [base, own] = Array.isArray(schema.allOf) ? schema.allOf : [];
  const extendable = schema.allOf?.length === 2 && parseRef(base?.$ref ?? '')?.in === 'self' && own?.type === 'object';
  const body = extendable ? own : schema;
  if (body.type === 'object' && body.properties) {
    const heritage = extendable ? ` extends ${printer.type(base)}` : '';
    return [
      ...jsdoc(schema.description),
      `export interface ${name}${heritage} {`,
      ...interfaceBody(printer, body),
      '}',
      '',
    ];
  }
  return [...jsdoc(schema.description), `export type ${name} = ${printer.type(schema)};`, ''];
}

function propertyLines(printer: TypePrinter, property: PropertyModel): string[] {
  const modifier = property.readOnly ? 'readonly ' : '';
  const optional = property.optional ? '?' : '';
  return [
    ...jsdoc(property.description, '  '),
    `  ${modifier}${property.name}${optional}: ${printer.type(property.schema)};`,
  ];
}

/** A method signature, its parameters on one line when it fits, else one per line as prettier would */
function methodLines(printer: TypePrinter, method: MethodModel): string[] {
  const parameters = method.parameters.map((p) => `${p.name}${p.optional ? '?' : ''}: ${printer.type(p.schema, true)}`);
  const { returns } = method;
  let result = returns.schema ? printer.type(returns.schema) : 'void';
  if (returns.orUndefined) result = `${result} | undefined`;
  if (returns.async) result = `Promise<${result}>`;
  const head = `  ${method.name}${method.optional ? '?' : ''}(`;
  const tail = `): ${result};`;
  const flat = `${head}${parameters.join(', ')}${tail}`;
  const signature =
    flat.length <= WIDTH || parameters.length === 0
      ? [flat]
      : [head, ...parameters.map((p) => `    ${p},`), `  ${tail}`];
  return [...jsdoc(method.description, '  '), ...signature];
}

/** The name of a contract's table for the host, such as `storeContract` */
function contractConst(name: string): string {
  return `${camel(name)}Contract`;
}

/** What the host checks of a service: which members exist, which are optional, the schemas of the non-methods */
function descriptor(contract: ContractModel): string[] {
  const table = {
    name: contract.contract,
    ...(contract.kind === undefined ? {} : { kind: contract.kind }),
    source: contract.source,
    properties: Object.fromEntries(
      contract.properties.map((p) => [p.name, { optional: p.optional, schema: p.schema }]),
    ),
    methods: Object.fromEntries(contract.methods.map((m) => [m.name, { optional: m.optional }])),
  };
  return [
    `/** What the host checks of a service held to \`${contract.contract}\` before another plugin gets it */`,
    `export const ${contractConst(contract.name)}: ServiceContract = ${literal(table)};`,
    '',
  ];
}

function contractFile(contract: ContractModel): Emitted {
  const printer = new TypePrinter();
  const body = [
    ...jsdoc(contract.description),
    `export interface ${contract.contract} {`,
    ...contract.properties.flatMap((p) => propertyLines(printer, p)),
    ...contract.methods.flatMap((m) => methodLines(printer, m)),
    '}',
    '',
    ...contract.components.flatMap((c) => component(printer, c.name, c.schema as Record<string, any>)),
    ...descriptor(contract),
  ];
  const openapi = [...printer.openapi].sort();
  const siblings = [...printer.siblings.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const imports = [
    `import type { ServiceContract } from '../../runtime/core/service-contract.ts';`,
    ...openapi.map((api) => `import type { components as ${pascal(api)}Components } from '../types/${api}.ts';`),
    ...siblings.map(([file, names]) => `import type { ${[...names].sort().join(', ')} } from './${file}.ts';`),
  ];
  const sources = [
    contract.source,
    ...siblings.map(([file]) => `spec/contracts/${file}.yaml`),
    ...openapi.map((api) => `spec/openapi/${api}.yaml`),
  ];
  return { path: `contracts/${contract.name}.ts`, contents: [header(sources), ...imports, '', ...body].join('\n') };
}

/** Every contract's table, for the host to find the one a plugin kind is held to */
function contractIndex(contracts: readonly ContractModel[]): Emitted {
  const lines = [
    header(contracts.map((c) => c.source)),
    `import type { ServiceContract } from '../runtime/core/service-contract.ts';`,
    ...contracts.map((c) => `import { ${contractConst(c.name)} } from './contracts/${c.name}.ts';`),
    '',
    '/** Every service contract of spec/contracts/, by file name */',
    'export const serviceContracts: readonly ServiceContract[] = [',
    ...contracts.map((c) => `  ${contractConst(c.name)},`),
    '];',
    '',
  ];
  return { path: 'contracts.ts', contents: lines.join('\n') };
}

/** One module per contract (its interface, the types it names, the host's table) and the list of tables */
export function emitContracts(model: GeneratorModel): Emitted[] {
  if (model.contracts.length === 0) return [];
  return [...model.contracts.map(contractFile), contractIndex(model.contracts)];
}
