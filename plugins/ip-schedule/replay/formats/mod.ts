/** The log formats `capstan replay` reads, and detection of a file's format from its first lines */
import type { FormatName, LogFormat } from '../attempt.ts';
import { exim } from './exim.ts';
import { halon } from './halon.ts';
import { kumomta } from './kumomta.ts';
import { postfix } from './postfix.ts';
import { powermta } from './powermta.ts';

export const FORMATS: Record<FormatName, LogFormat> = { postfix, exim, kumomta, halon, powermta };

/** Lines looked at to detect a format: a busy log's first delivery line comes within these */
export const SNIFF_LINES = 200;

/** The format most of `lines` look like, or undefined when none does */
export function detectFormat(lines: readonly string[]): LogFormat | undefined {
  const votes = new Map<LogFormat, number>();
  for (const line of lines.slice(0, SNIFF_LINES)) {
    for (const format of Object.values(FORMATS))
      if (format.sniff(line)) votes.set(format, (votes.get(format) ?? 0) + 1);
  }
  let best: LogFormat | undefined;
  for (const [format, count] of votes) if (!best || count > votes.get(best)!) best = format;
  return best;
}
