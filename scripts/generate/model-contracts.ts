import { eachRef, resolvePointer } from './load.ts';
import { pointerSegment, SpecError, type SpecFile } from './spec-file.ts';
import { IDENTIFIER } from './names.ts';
import type { JsonSchema } from './model.ts';

const TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;
/** The plugin kinds whose service the host checks against a contract; an API plugin's service is its own */
const KINDS = ['classifier', 'store'];
const COMPONENT = /^#\/components\/schemas\/([^/]+)$/;

/** Where a contract's `$ref` points: its own component, another contract's, or an OpenAPI document's */
export type ContractRef =
  | { in: 'self'; name: string }
  | { in: 'contract'; file: string; name: string }
  | { in: 'openapi'; file: string; name: string };

/** One parameter of a contract method; an optional one may be left out by the caller */
export interface ParameterModel {
  name: string;
  optional: boolean;
  schema: JsonSchema;
}

/** One method: its parameters in order and what it answers (`async`: a promise of it; no schema: nothing) */
export interface MethodModel {
  name: string;
  description?: string;
  optional: boolean;
  parameters: ParameterModel[];
  returns: { async: boolean; orUndefined: boolean; schema?: JsonSchema };
}

/** A member that is not a method, such as a classifier's `version`; its schema is what the host checks */
export interface PropertyModel {
  name: string;
  description?: string;
  optional: boolean;
  readOnly: boolean;
  schema: JsonSchema;
}

/** One service contract of `spec/contracts/` */
export interface ContractModel {
  /** The file's name, such as `store`: names the generated module */
  name: string;
  source: string;
  /** The TypeScript interface, such as `ScheduleStore` */
  contract: string;
  /** The plugin kind whose service the host holds to it */
  kind?: string;
  description: string;
  properties: PropertyModel[];
  methods: MethodModel[];
  /** The named schemas the members use, in the spec's order */
  components: { name: string; schema: JsonSchema }[];
}

/** Parses a contract `$ref`: `#/components/schemas/X`, `<contract>.yaml#/...` or `../openapi/<api>.yaml#/...` */
export function parseRef(ref: string): ContractRef | undefined {
  const [file, pointer = ''] = ref.split('#');
  const name = COMPONENT.exec(`#${pointer}`)?.[1];
  if (name === undefined) return undefined;
  if (file === '') return { in: 'self', name };
  const openapi = /^\.\.\/openapi\/([a-z0-9-]+)\.yaml$/.exec(file);
  if (openapi) return { in: 'openapi', file: openapi[1], name };
  const contract = /^([a-z0-9-]+)\.yaml$/.exec(file);
  return contract ? { in: 'contract', file: contract[1], name } : undefined;
}

function object(spec: SpecFile, value: unknown, pointer: string, what: string): Record<string, any> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SpecError(spec.file, pointer, `${what} must be an object`);
  return value as Record<string, any>;
}

function only(spec: SpecFile, value: Record<string, unknown>, keys: readonly string[], pointer: string): void {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined)
    throw new SpecError(
      spec.file,
      `${pointer}/${pointerSegment(unknown)}`,
      `unknown key "${unknown}": expected one of "${keys.join('", "')}"`,
    );
}

function text(spec: SpecFile, value: unknown, pointer: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new SpecError(spec.file, pointer, 'must be a string');
  return value?.trim();
}

function identifier(spec: SpecFile, name: string, pointer: string): string {
  if (!IDENTIFIER.test(name)) throw new SpecError(spec.file, pointer, `"${name}" cannot name a TypeScript member`);
  return name;
}

/** Fails on a `$ref` that names no component schema of its own contract, a sibling contract or an OpenAPI document */
function checkRefs(spec: SpecFile, specs: ReadonlyMap<string, SpecFile>): void {
  eachRef(spec.document, '', (value, at) => {
    const ref = parseRef(value);
    const target = ref?.in === 'self' ? spec : ref && specs.get(`${ref.in}/${ref.file}`);
    if (target === undefined || resolvePointer(target.document, `/components/schemas/${ref!.name}`) === undefined)
      throw new SpecError(spec.file, at, `unresolved $ref "${value}"`);
  });
}

function methodModel(spec: SpecFile, name: string, raw: unknown, pointer: string): MethodModel {
  const method = object(spec, raw, pointer, 'a method');
  only(spec, method, ['description', 'optional', 'parameters', 'returns'], pointer);
  const parameters = (method.parameters ?? []).map((p: unknown, i: number): ParameterModel => {
    const at = `${pointer}/parameters/${i}`;
    const parameter = object(spec, p, at, 'a parameter');
    only(spec, parameter, ['name', 'optional', 'schema'], at);
    return {
      name: identifier(spec, String(parameter.name), `${at}/name`),
      optional: parameter.optional === true,
      schema: object(spec, parameter.schema, `${at}/schema`, 'a schema'),
    };
  });
  const firstOptional = parameters.findIndex((p: ParameterModel) => p.optional);
  if (firstOptional >= 0 && parameters.slice(firstOptional).some((p: ParameterModel) => !p.optional))
    throw new SpecError(spec.file, `${pointer}/parameters`, 'a required parameter cannot follow an optional one');
  const returns = object(spec, method.returns ?? {}, `${pointer}/returns`, 'returns');
  only(spec, returns, ['async', 'orUndefined', 'schema'], `${pointer}/returns`);
  return {
    name,
    description: text(spec, method.description, `${pointer}/description`),
    optional: method.optional === true,
    parameters,
    returns: {
      async: returns.async === true,
      orUndefined: returns.orUndefined === true,
      schema:
        returns.schema === undefined
          ? undefined
          : object(spec, returns.schema, `${pointer}/returns/schema`, 'a schema'),
    },
  };
}

function propertyModel(spec: SpecFile, name: string, raw: unknown, pointer: string): PropertyModel {
  const property = object(spec, raw, pointer, 'a property');
  only(spec, property, ['description', 'optional', 'readOnly', 'schema'], pointer);
  const schema = object(spec, property.schema, `${pointer}/schema`, 'a schema');
  // The host checks the value with this schema alone, without the contract's components
  if (JSON.stringify(schema).includes('"$ref"'))
    throw new SpecError(spec.file, `${pointer}/schema`, 'a property schema cannot use $ref: the host checks it alone');
  return {
    name,
    description: text(spec, property.description, `${pointer}/description`),
    optional: property.optional === true,
    readOnly: property.readOnly === true,
    schema,
  };
}

function contractModel(spec: SpecFile, specs: ReadonlyMap<string, SpecFile>): ContractModel {
  const doc = spec.document;
  only(spec, doc, ['contract', 'kind', 'description', 'properties', 'methods', 'components'], '');
  if (typeof doc.contract !== 'string' || !TYPE_NAME.test(doc.contract))
    throw new SpecError(spec.file, '/contract', 'expected the PascalCase name of the interface');
  if (doc.kind !== undefined && !KINDS.includes(doc.kind))
    throw new SpecError(spec.file, '/kind', `expected one of "${KINDS.join('", "')}", found "${doc.kind}"`);
  const description = text(spec, doc.description, '/description');
  if (!description) throw new SpecError(spec.file, '/description', 'a contract needs a description');
  checkRefs(spec, specs);
  const properties = Object.entries(object(spec, doc.properties ?? {}, '/properties', 'properties')).map(
    ([name, raw]) =>
      propertyModel(
        spec,
        identifier(spec, name, `/properties/${pointerSegment(name)}`),
        raw,
        `/properties/${pointerSegment(name)}`,
      ),
  );
  const methods = Object.entries(object(spec, doc.methods ?? {}, '/methods', 'methods')).map(([name, raw]) =>
    methodModel(
      spec,
      identifier(spec, name, `/methods/${pointerSegment(name)}`),
      raw,
      `/methods/${pointerSegment(name)}`,
    ),
  );
  const both = properties.find((p) => methods.some((m) => m.name === p.name));
  if (both) throw new SpecError(spec.file, `/methods/${pointerSegment(both.name)}`, `"${both.name}" is a property too`);
  const components = Object.entries(object(spec, doc.components?.schemas ?? {}, '/components/schemas', 'schemas')).map(
    ([name, schema]) => {
      if (!TYPE_NAME.test(name))
        throw new SpecError(spec.file, `/components/schemas/${pointerSegment(name)}`, `"${name}" cannot name a type`);
      return { name, schema: schema as JsonSchema };
    },
  );
  return {
    name: spec.name,
    source: spec.file,
    contract: doc.contract,
    kind: doc.kind,
    description,
    properties,
    methods,
    components,
  };
}

/** The contracts of `spec/contracts/`; fails on a malformed one, an unresolved `$ref` or a kind held to two */
export function contractModels(contracts: readonly SpecFile[], openapi: readonly SpecFile[]): ContractModel[] {
  const specs = new Map([
    ...contracts.map((spec) => [`contract/${spec.name}`, spec] as const),
    ...openapi.map((spec) => [`openapi/${spec.name}`, spec] as const),
  ]);
  const models = contracts.map((spec) => contractModel(spec, specs));
  const kinds = new Map<string, string>();
  for (const model of models) {
    if (model.kind === undefined) continue;
    const previous = kinds.get(model.kind);
    if (previous)
      throw new SpecError(model.source, '/kind', `kind "${model.kind}" is already held to the contract of ${previous}`);
    kinds.set(model.kind, model.source);
  }
  return models;
}
