import { header, literal, type Emitted } from './emit.ts';
import { camel } from './names.ts';
import type { GeneratorModel } from './model.ts';

/** The route table: operationId → API, method, router path and that operation's schemas */
export function emitRoutes(model: GeneratorModel): Emitted {
  const imports = model.apis.map((api) => `import * as ${camel(api.name)} from './validators/${api.name}.ts';`);
  const rows = model.apis.flatMap((api) =>
    api.operations.map(
      (op) =>
        `  { api: ${JSON.stringify(api.name)}, operationId: ${JSON.stringify(op.operationId)}, ` +
        `method: ${JSON.stringify(op.method)}, path: ${JSON.stringify(op.routerPath)}, bodyRequired: ${op.bodyRequired}, ` +
        (op.rawBodyTypes.length > 0 ? `rawBodyTypes: ${JSON.stringify(op.rawBodyTypes)}, ` : '') +
        `schemas: ${camel(api.name)}.operations[${JSON.stringify(op.operationId)}] },`,
    ),
  );
  const contents = [
    header(model.apis.map((a) => a.source)),
    `import type { RouteEntry } from '../runtime/core/operation-schemas.ts';`,
    ...imports,
    '',
    '/** Every operation of every API, most specific path first within an API */',
    'export const routes: readonly RouteEntry[] = [',
    ...rows,
    '];',
    '',
  ].join('\n');
  return { path: 'routes.ts', contents };
}

/** The OpenAPI documents as served at `/openapi.json` (merged at run time from the mounted APIs) */
export function emitDocuments(model: GeneratorModel): Emitted {
  const documents = Object.fromEntries(model.apis.map((api) => [api.name, api.document]));
  return {
    path: 'openapi.ts',
    contents: `${header(model.apis.map((a) => a.source))}\n/** Each API's OpenAPI document by name */\nexport const documents: Record<string, any> = ${literal(documents)};\n`,
  };
}
