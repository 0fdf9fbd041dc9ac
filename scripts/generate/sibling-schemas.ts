import { pointerSegment, SpecError, type SpecFile } from './spec-file.ts';

const SIBLING_REF = /^([a-z0-9-]+)\.yaml#\/components\/schemas\/([^/]+)$/;
const LOCAL_REF = /^#\/components\/schemas\/([^/]+)$/;

/**
 * Lets an OpenAPI document of `spec/openapi/` name a component schema of another (`host.yaml#/components/schemas/
 * AuditEntry`), so that a shape several APIs share, such as the host's audit entry, is defined once. The schema, with
 * every schema it names in turn, is copied into the naming document's components under its own name and the `$ref`
 * made local: each document the host serves, and the types and validators made from it, stands alone. A copied name
 * that the document defines itself, or that two documents would give it, is refused. Changes `openapi` in place.
 */
export function importSiblingSchemas(openapi: readonly SpecFile[]): void {
  for (const spec of openapi) {
    const imported = new Map<string, SpecFile>();
    rewriteRefs(spec.document, '', (ref, at) =>
      SIBLING_REF.test(ref) ? importRef(openapi, spec, spec, ref, imported, spec.file, at) : ref,
    );
  }
}

/** Copies the schema `ref` names, as written in `from`, into `into`; answers the local `$ref` that replaces it */
function importRef(
  openapi: readonly SpecFile[],
  into: SpecFile,
  from: SpecFile,
  ref: string,
  imported: Map<string, SpecFile>,
  file: string,
  at: string,
): string {
  const local = LOCAL_REF.exec(ref);
  const sibling = SIBLING_REF.exec(ref);
  const owner = local !== null ? from : openapi.find((spec) => spec.name === sibling?.[1]);
  if (owner === undefined) throw new SpecError(file, at, `unresolved $ref "${ref}"`);
  // A local `$ref` here is one inside a copied schema, so its owner is never `into`
  if (owner === into)
    throw new SpecError(file, at, `"${ref}" names its own document: write "#/components/schemas/..."`);
  const encoded = (local ?? sibling)![local !== null ? 1 : 2]!;
  const name = decodeURIComponent(encoded);
  if (imported.get(name) === owner) return `#/components/schemas/${encoded}`;
  const schemas = ((into.document.components ??= {}).schemas ??= {}) as Record<string, unknown>;
  if (imported.has(name) || name in schemas) {
    const other = imported.get(name)?.file ?? into.file;
    throw new SpecError(file, at, `schema "${name}" of ${owner.file} clashes with the one of ${other}`);
  }
  const source = owner.document.components?.schemas?.[name];
  if (source === undefined) throw new SpecError(file, at, `unresolved $ref "${ref}"`);
  imported.set(name, owner);
  const copy = structuredClone(source);
  rewriteRefs(copy, `/components/schemas/${pointerSegment(name)}`, (inner, innerAt) => {
    if (LOCAL_REF.test(inner) || SIBLING_REF.test(inner))
      return importRef(openapi, into, owner, inner, imported, owner.file, innerAt);
    throw new SpecError(owner.file, innerAt, `"${inner}" cannot be copied into ${into.file}: only schemas can`);
  });
  schemas[name] = copy;
  return `#/components/schemas/${encoded}`;
}

/** Replaces every string `$ref` below `node` with what `visit` answers for it and the JSON pointer of its key */
function rewriteRefs(node: unknown, pointer: string, visit: (ref: string, at: string) => string): void {
  if (Array.isArray(node)) return node.forEach((item, i) => rewriteRefs(item, `${pointer}/${i}`, visit));
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    const at = `${pointer}/${pointerSegment(key)}`;
    if (key === '$ref' && typeof value === 'string') record[key] = visit(value, at);
    else rewriteRefs(value, at, visit);
  }
}
