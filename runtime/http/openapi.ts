import { documents } from '../../generated/openapi.ts';

const SECTIONS = [
  'schemas',
  'parameters',
  'responses',
  'requestBodies',
  'securitySchemes',
  'headers',
  'examples',
] as const;

/**
 * Merges the OpenAPI documents of the mounted APIs into one. A component name two APIs define differently
 * is prefixed with its API's name, and that API's references are rewritten.
 */
export function mergedDocument(apis: readonly string[], version: string): Record<string, any> {
  const merged: Record<string, any> = {
    openapi: '3.1.0',
    info: { title: 'Capstan', version, description: `Mounted APIs: ${apis.join(', ')}` },
    paths: {},
    components: {},
    tags: [],
  };
  for (const api of apis) {
    let text = JSON.stringify(documents[api]);
    const doc = JSON.parse(text);
    for (const section of SECTIONS) {
      for (const [name, value] of Object.entries<any>(doc.components?.[section] ?? {})) {
        const existing = merged.components[section]?.[name];
        if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(value)) {
          text = text.replaceAll(`"#/components/${section}/${name}"`, `"#/components/${section}/${api}-${name}"`);
        }
      }
    }
    const renamed = JSON.parse(text);
    for (const section of SECTIONS) {
      for (const [name, value] of Object.entries<any>(doc.components?.[section] ?? {})) {
        const existing = merged.components[section]?.[name];
        const key =
          existing !== undefined && JSON.stringify(existing) !== JSON.stringify(value) ? `${api}-${name}` : name;
        (merged.components[section] ??= {})[key] = renamed.components[section][name];
      }
    }
    Object.assign(merged.paths, renamed.paths);
    merged.tags.push(...(renamed.tags ?? []), { name: api, description: renamed.info?.title });
  }
  return merged;
}
