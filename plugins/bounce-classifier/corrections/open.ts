import type { BounceClassifierConfig } from '../../../generated/types/plugins/bounce-classifier.ts';
import type { Logger } from '../../../runtime/mod.ts';
import { openFileStore } from './file-store.ts';
import { openPgStore } from './pg-store.ts';
import type { CorrectionStore } from './store.ts';

/** PostgreSQL when the config names a database, else the file in the cache folder */
export function openCorrectionStore(
  config: BounceClassifierConfig['corrections'],
  cacheFolder: string,
  log: Logger,
): Promise<CorrectionStore> {
  const { connectionString, schema, applicationName } = config;
  return connectionString === undefined
    ? openFileStore(cacheFolder)
    : openPgStore({ connectionString, schema, applicationName, log });
}
