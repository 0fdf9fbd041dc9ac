import type { Logger } from '../core/types.ts';
import { stdoutLines } from './log-sink.ts';

/** The levels a log line has, least severe first */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
export const LOG_LEVELS = Object.keys(ORDER) as readonly LogLevel[];

/** A structured logger that can add fields for a child scope */
export interface HostLogger extends Logger {
  child(fields: Record<string, unknown>): HostLogger;
}

/**
 * JSON lines to `write` (standard output by default, dropping lines it cannot take); `service` is
 * `environment.syslog.ident`. The host passes `CAPSTAN_LOG_LEVEL` as `level`, checked with its other settings
 */
export function createLogger(options: {
  service: string;
  level?: LogLevel;
  write?: (line: string) => void;
}): HostLogger {
  const min = ORDER[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => stdoutLines().write(line));
  const make = (base: Record<string, unknown>): HostLogger => {
    const emit = (level: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[level] < min) return;
      write(`${JSON.stringify({ time: new Date().toISOString(), level, ...base, msg, ...fields }, errorReplacer)}\n`);
    };
    return {
      debug: emit('debug'),
      info: emit('info'),
      warn: emit('warn'),
      error: emit('error'),
      child: (fields) => make({ ...base, ...fields }),
    };
  };
  return make({ service: options.service });
}

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, code: (value as any).code } : value;
}
