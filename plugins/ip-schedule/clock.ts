/**
 * The plugin's clock: the system's, or for tests a clock that starts at the time `CAPSTAN_TEST_CLOCK` names (RFC 3339)
 * and runs on from there, so that black-box tests can place backoff events, windows and TTLs at known times. The feed
 * and the backoff engine share it. Refused when `NODE_ENV` is `production`: a production host always has the real time.
 */
import { errors } from './errors.ts';
import type { Clock } from './feed/mod.ts';

/** The environment variables the clock reads */
export const CLOCK_ENV = ['CAPSTAN_TEST_CLOCK', 'NODE_ENV'] as const;

/** The system clock, or the test clock `env` asks for */
export function pluginClock(env: Readonly<Record<string, string | undefined>>): Clock {
  const system: Clock = {
    now: () => Date.now(),
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const start = env.CAPSTAN_TEST_CLOCK;
  if (start === undefined || start === '') return system;
  const at = Date.parse(start);
  if (env.NODE_ENV === 'production' || !/^\d{4}-\d{2}-\d{2}T/.test(start) || !Number.isFinite(at))
    throw errors.SCHEDULE_ERR_TEST_CLOCK(start);
  const offset = at - Date.now();
  return { ...system, now: () => Date.now() + offset };
}
