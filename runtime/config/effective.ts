import type { StartupConfig } from '../../generated/types/startup-config.ts';
import { fillDefaults } from './defaults.ts';
import { startupConfigSchema } from './schema.ts';

/**
 * Returns a valid document with every schema default filled in; the input's own values stay
 * as they are. A default inside an optional object applies only when that object is present.
 */
export function effective(document: StartupConfig): StartupConfig {
  return fillDefaults(startupConfigSchema, document);
}
