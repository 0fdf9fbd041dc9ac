import { explain } from './explain.ts';
import type { Issue } from './explain.ts';
import { withinAny } from './path.ts';
import { checkPlugins } from './plugins.ts';
import type { FileError, LoadPlugin, ReadConfigFile } from './plugins.ts';
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

/** How to check the plugins of a document: where relative paths start, and how plugins and config files are read */
export type PluginOptions = { baseDir: string; load: LoadPlugin; readConfigFile: ReadConfigFile };

/**
 * Validates a whole startup document as `capstan serve` would start it: `validateDocument`, then each plugin's config,
 * services and thread pool (`checkPlugins`). `capstan config check` and `capstan serve` both come here, so they accept
 * the same documents. Errors found in a plugin's config file come back apart, with that file's positions.
 */
export async function validateStartup(
  value: unknown,
  options: { serve?: boolean } & PluginOptions,
): Promise<Checked & { fileErrors: FileError[] }> {
  const checked = validateDocument(value, options);
  const plugins = await checkPlugins(value, options);
  const reported = withinAny(checked.errors.map((issue) => issue.path));
  return {
    errors: [...checked.errors, ...plugins.errors.filter((issue) => !reported(issue.path))],
    warnings: [...checked.warnings, ...plugins.warnings],
    fileErrors: plugins.fileErrors,
  };
}
