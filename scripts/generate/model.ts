import { OPENAPI_REF, resolveOpenapiRef, resolvePointer, type LoadedSpecs } from './load.ts';
import { pointerSegment, SpecError, type SpecFile } from './spec-file.ts';
import { contractModels, type ContractModel } from './model-contracts.ts';
import { dataModel, type DataModel } from './model-data.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** A JSON Schema object, as found in the specs */
export type JsonSchema = Record<string, unknown>;

/** One operation, reduced to what the route table and validators need */
export interface OperationModel {
  operationId: string;
  method: string;
  /** OpenAPI form, `/config/{ip}` */
  path: string;
  /** @koa/router form, `/config/:ip` */
  routerPath: string;
  pointer: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: { schema: JsonSchema };
  /** Non-JSON media types of the request body (lower case, sorted), which the host hands over as raw bytes */
  rawBodyTypes: string[];
  /** The request body is required, whatever its media type */
  bodyRequired: boolean;
  responses: Record<string, JsonSchema>;
}

/** One HTTP API: its document and operations, most specific paths first */
export interface ApiModel {
  name: string;
  source: string;
  document: Record<string, any>;
  operations: OperationModel[];
}

/** A JSON Schema document such as the startup configuration */
export interface SchemaModel {
  name: string;
  source: string;
  schema: JsonSchema;
}

/** The whole model the emitters work from */
export interface GeneratorModel {
  apis: ApiModel[];
  schemas: SchemaModel[];
  /** The built-in plugins' config schemas, named by plugin id, `$ref`s into OpenAPI documents inlined */
  plugins: SchemaModel[];
  /** One per API that marks enums `x-const` */
  data: DataModel[];
  /** The service contracts of `spec/contracts/` */
  contracts: ContractModel[];
  sources: SpecFile[];
}

function deref(spec: SpecFile, node: any): any {
  return node && typeof node.$ref === 'string' ? resolvePointer(spec.document, node.$ref.slice(1)) : node;
}

/** The schema at `pointer`; a missing one is a spec error */
function schemaOf(spec: SpecFile, schema: unknown, pointer: string): JsonSchema {
  if (typeof schema !== 'object' || schema === null) throw new SpecError(spec.file, pointer, 'missing schema');
  return schema as JsonSchema;
}

function parameterSet(
  spec: SpecFile,
  parameters: any[],
  where: 'path' | 'query',
  pointer: string,
): JsonSchema | undefined {
  const selected = parameters.map((p) => deref(spec, p)).filter((p) => p?.in === where);
  if (selected.length === 0) return undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of selected) {
    properties[p.name] = schemaOf(spec, p.schema, `${pointer}/parameters`);
    if (p.required || where === 'path') required.push(p.name);
  }
  return { type: 'object', properties, required, additionalProperties: where === 'path' ? false : true };
}

function responsesOf(spec: SpecFile, responses: Record<string, any>, pointer: string): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [status, raw] of Object.entries(responses ?? {})) {
    const response = deref(spec, raw);
    const schema = response?.content?.['application/json']?.schema;
    if (schema) out[status] = schemaOf(spec, schema, `${pointer}/responses/${status}`);
  }
  return out;
}

/** Orders paths so that a literal segment is tried before a parameter in the same place */
function comparePaths(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i].startsWith('{');
    const pb = sb[i].startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
    if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  }
  return sa.length - sb.length;
}

function apiModel(spec: SpecFile, seen: Map<string, string>): ApiModel {
  const doc = spec.document;
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.1')) {
    throw new SpecError(spec.file, '/openapi', `expected an OpenAPI 3.1 document, found "${doc.openapi}"`);
  }
  const operations: OperationModel[] = [];
  for (const path of Object.keys(doc.paths ?? {}).sort(comparePaths)) {
    const item = doc.paths[path];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const pointer = `/paths/${pointerSegment(path)}/${method}`;
      const id = op.operationId;
      if (typeof id !== 'string' || id === '') throw new SpecError(spec.file, pointer, 'operation has no operationId');
      const previous = seen.get(id);
      if (previous)
        throw new SpecError(spec.file, `${pointer}/operationId`, `duplicate operationId "${id}" (also at ${previous})`);
      seen.set(id, `${spec.file}#${pointer}`);
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const bodyDef = deref(spec, op.requestBody);
      const bodySchema = bodyDef?.content?.['application/json']?.schema;
      const rawBodyTypes = Object.keys(bodyDef?.content ?? {})
        .map((type) => type.toLowerCase())
        .filter((type) => type !== 'application/json')
        .sort();
      operations.push({
        operationId: id,
        method: method.toUpperCase(),
        path,
        routerPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        pointer,
        params: parameterSet(spec, parameters, 'path', pointer),
        query: parameterSet(spec, parameters, 'query', pointer),
        body: bodySchema ? { schema: schemaOf(spec, bodySchema, `${pointer}/requestBody`) } : undefined,
        rawBodyTypes,
        bodyRequired: bodyDef?.required === true,
        responses: responsesOf(spec, op.responses, pointer),
      });
    }
  }
  return { name: spec.name, source: spec.file, document: doc, operations };
}

/** Builds the generator model from the loaded specs; fails on a missing or duplicate operationId */
export function buildModel(specs: LoadedSpecs): GeneratorModel {
  const seen = new Map<string, string>();
  return {
    apis: specs.openapi.map((spec) => apiModel(spec, seen)),
    schemas: specs.schemas.map((spec) => ({ name: spec.name, source: spec.file, schema: spec.document })),
    plugins: specs.plugins.map((spec) => ({
      name: spec.name,
      source: spec.file,
      schema: inlineOpenapiRefs(spec, specs.openapi),
    })),
    data: specs.openapi.map(dataModel).filter((d) => d.consts.length > 0),
    contracts: contractModels(specs.contracts, specs.openapi),
    sources: [...specs.openapi, ...specs.schemas, ...specs.plugins, ...specs.contracts],
  };
}

/**
 * A plugin schema with each `$ref` into an OpenAPI document replaced by the schema it names (its siblings kept), so
 * that
 * the generated schema stands alone: a class list stays written once, in the API that answers it. The OpenAPI
 * document's own keywords (`x-const`, `x-table`) are left behind; a target that refers further is a spec error.
 */
function inlineOpenapiRefs(spec: SpecFile, openapi: readonly SpecFile[]): JsonSchema {
  const visit = (node: unknown, pointer: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => visit(item, `${pointer}/${i}`));
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    if (typeof $ref === 'string' && $ref.startsWith(OPENAPI_REF)) {
      const target = resolveOpenapiRef($ref, openapi) as Record<string, unknown>;
      const own = Object.fromEntries(Object.entries(target).filter(([key]) => !key.startsWith('x-')));
      if (JSON.stringify(own).includes('"$ref"'))
        throw new SpecError(
          spec.file,
          `${pointer}/$ref`,
          `"${$ref}" refers further: only a schema without $ref can be inlined`,
        );
      Object.assign(out, own);
    } else if ($ref !== undefined) out.$ref = $ref;
    for (const [key, value] of Object.entries(rest)) out[key] = visit(value, `${pointer}/${pointerSegment(key)}`);
    return out;
  };
  return visit(spec.document, '') as JsonSchema;
}
