import { explain } from './explain.ts';
import type { Issue } from './explain.ts';
import { checkReferences } from './references.ts';
import { documentValidator, startupConfigSchema } from './schema.ts';

/**
 * Validates a parsed document: the compiled schema decides, the explainer words each broken
 * rule, then the cross-reference checks run. Returns no issues when the document is valid.
 */
export function validateDocument(value: unknown): Issue[] {
  const references = checkReferences(value);
  if (documentValidator().Check(value)) return references;
  const issues = explain(startupConfigSchema, value);
  // The explainer mirrors the compiled validator; this guard keeps a mismatch from passing silently.
  if (issues.length === 0) issues.push({ path: [], message: 'does not match the startup configuration schema' });
  // A reference inside a value the schema already rejects would only repeat the same problem.
  const reported = (path: Issue['path']): boolean => issues.some((issue) => issue.path.every((part, i) => path[i] === part));
  return [...issues, ...references.filter((issue) => !reported(issue.path))];
}
