import { isAbsolute, join, resolve } from 'node:path';
import type { BounceClassifierConfig } from '../../generated/types/plugins/bounce-classifier.ts';
import type { CapstanError } from '../../runtime/mod.ts';
import { errors } from './errors.ts';
import type { CacheSettings } from './cache/result-cache.ts';

/** The plugin's config, defaults filled (spec/schema/plugins/bounce-classifier.schema.json) */
export type ClassifierApiConfig = BounceClassifierConfig;

/** Settings in force: the environment wins over the config */
export interface Settings {
  cache: CacheSettings;
  limits: ClassifierApiConfig['limits'];
}

/**
 * Environment variables the plugin reads, as the API document names them. `API_KEY` is the host's: accepted on every
 * route, this plugin's included
 */
export const ENV_NAMES = ['SERVICE_BNAC_CACHE', 'SERVICE_BNAC_CACHE_FOLDER', 'SERVICE_BNAC_CACHE_SIZE'] as const;

const SWITCH: Record<string, boolean> = {
  on: true,
  true: true,
  yes: true,
  1: true,
  off: false,
  false: false,
  no: false,
  0: false,
};

/** Merges config and environment; a malformed variable stops startup with a message naming it */
export function resolveSettings(
  config: ClassifierApiConfig,
  env: Readonly<Record<string, string | undefined>>,
  dirs: { baseDir: string; dataDir: string },
): Settings {
  const folder =
    nonEmpty(env.SERVICE_BNAC_CACHE_FOLDER) ?? nonEmpty(config.cache.folder) ?? join(dirs.dataDir, 'cache');
  return {
    cache: {
      enabled: parseSwitch(env.SERVICE_BNAC_CACHE) ?? config.cache.enabled,
      folder: isAbsolute(folder) ? folder : resolve(dirs.baseDir, folder),
      maxSize: parseBytes(env.SERVICE_BNAC_CACHE_SIZE) ?? config.cache.maxSize,
    },
    limits: config.limits,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function parseSwitch(value: string | undefined): boolean | undefined {
  if (nonEmpty(value) === undefined) return undefined;
  const parsed = SWITCH[value!.trim().toLowerCase()];
  if (parsed === undefined) throw invalid('SERVICE_BNAC_CACHE', value!, 'expected "on" or "off"');
  return parsed;
}

function parseBytes(value: string | undefined): number | undefined {
  if (nonEmpty(value) === undefined) return undefined;
  const trimmed = value!.trim();
  const bytes = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || bytes < 1 || !Number.isSafeInteger(bytes)) {
    throw invalid('SERVICE_BNAC_CACHE_SIZE', value!, 'expected a positive number of bytes');
  }
  return bytes;
}

function invalid(name: string, value: string, expected: string): CapstanError {
  return errors.BOUNCE_ERR_ENV(name, value, expected);
}
