import { compile } from 'json-schema-to-typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { header, type Emitted } from './emit.ts';
import type { GeneratorModel } from './model.ts';

function pascal(name: string): string {
  return name.replace(/(^|[-_.])([a-z0-9])/gi, (_, __, c: string) => c.toUpperCase());
}

/** TypeScript types: openapi-typescript for each API, json-schema-to-typescript for each JSON Schema */
export async function emitTypes(model: GeneratorModel): Promise<Emitted[]> {
  const out: Emitted[] = [];
  for (const api of model.apis) {
    // Request bodies arrive without their defaults filled, so a property with a default stays optional in the types
    const ast = await openapiTS(structuredClone(api.document) as Parameters<typeof openapiTS>[0], { alphabetize: false, defaultNonNullable: false });
    out.push({ path: `types/${api.name}.ts`, contents: `${header([api.source])}\n${astToString(ast)}` });
  }
  for (const schema of model.schemas) {
    const ts = await compile(structuredClone(schema.schema) as any, pascal(schema.name), {
      bannerComment: '',
      additionalProperties: false,
      format: true,
      strictIndexSignatures: true,
    });
    out.push({ path: `types/${schema.name}.ts`, contents: `${header([schema.source])}\n${ts}` });
  }
  return out;
}
