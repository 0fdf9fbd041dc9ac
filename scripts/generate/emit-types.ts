import { compile } from 'json-schema-to-typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { header, type Emitted } from './emit.ts';
import { pascal } from './names.ts';
import type { GeneratorModel } from './model.ts';

/** The type of a built-in plugin's config, such as `IpScheduleConfig` */
export function pluginConfigType(id: string): string {
  return `${pascal(id)}Config`;
}

/** TypeScript types: openapi-typescript for each API, json-schema-to-typescript for each JSON Schema */
export async function emitTypes(model: GeneratorModel): Promise<Emitted[]> {
  const out: Emitted[] = [];
  for (const api of model.apis) {
    // Request bodies arrive without their defaults filled, so a property with a default stays optional in the types
    const ast = await openapiTS(structuredClone(api.document) as Parameters<typeof openapiTS>[0], {
      alphabetize: false,
      defaultNonNullable: false,
    });
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
  for (const plugin of model.plugins) {
    // Named after the plugin, not the schema's title; defaults are filled before a plugin sees its config, and the
    // schema lists the properties with defaults as required, so they are not optional in the type
    const ts = await compile(
      { ...structuredClone(plugin.schema), title: undefined, $id: undefined } as any,
      pluginConfigType(plugin.name),
      {
        bannerComment: '',
        additionalProperties: false,
        format: true,
        strictIndexSignatures: true,
      },
    );
    out.push({ path: `types/plugins/${plugin.name}.ts`, contents: `${header([plugin.source])}\n${ts}` });
  }
  return out;
}
