import { explain } from './explain.ts';
import type { Issue } from './explain.ts';
import { withinAny } from './path.ts';
import { checkReferences } from './references.ts';
import { documentValidator, startupConfigSchema } from './schema.ts';
import { collectWarnings } from './warnings.ts';

/** What a check found: errors make the document invalid, warnings only ask for a look. */
export type Checked = { errors: Issue[]; warnings: Issue[] };

/**
 * Validates a parsed document: the compiled schema decides, the explainer words each broken
 * rule, then the cross-reference checks run. Warnings come from the schema's `x-warnings` and
 * from the cross-reference checks. `serve` makes the rules Capstan needs to serve (an https
 * server's key) errors. Returns no errors when the document is valid.
 */
export function validateDocument(value: unknown, options: { serve?: boolean } = {}): Checked {
  const references = checkReferences(value, options);
  const warnings = [...collectWarnings(value), ...references.warnings];
  if (documentValidator().Check(value)) return { errors: references.errors, warnings };
  const issues = explain(startupConfigSchema, value);
  // The explainer mirrors the compiled validator; this guard keeps a mismatch from passing silently.
  if (issues.length === 0) issues.push({ path: [], message: 'does not match the startup configuration schema' });
  // A reference inside a value the schema already rejects would only repeat the same problem.
  const reported = withinAny(issues.map((issue) => issue.path));
  return { errors: [...issues, ...references.errors.filter((issue) => !reported(issue.path))], warnings };
}
