import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the built-in plugins, `plugins/` beside the package's `package.json`: found by walking up from this
 * module, because it runs both from its source file and from the bundle of `capstan config` in `.build/`.
 */
export const BUILTIN_DIR = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'plugins');
})();
