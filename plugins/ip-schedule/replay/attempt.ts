/** One delivery attempt read from an MTA's log, whatever the format */

/** What became of the attempt: delivered, retried later, or failed for good */
export type Outcome = 'sent' | 'deferred' | 'bounced';

export interface Attempt {
  /** Epoch milliseconds */
  time: number;
  /** The sending IP, or the MTA's name for its source when the log has no IP (Postfix: host/instance) */
  localIp: string;
  recipientDomain: string;
  /** Host name of the remote MX; empty when the log names none (e.g. the connection failed) */
  remoteMx: string;
  remoteIp: string;
  outcome: Outcome;
  /** The remote server's reply (or the MTA's own error text), as logged */
  reply: string;
  tenantId?: string;
  jobId?: string;
}

/** Turns one log line into an attempt, or undefined when the line is not a delivery attempt. May keep state (CSV header) */
export type LineReader = (line: string) => Attempt | undefined;

/** One MTA's log format */
export interface LogFormat {
  name: FormatName;
  /** Whether `line` looks like one of this format's lines: used to detect the format from a file's first lines */
  sniff(line: string): boolean;
  /** A reader for one file (state such as a CSV header belongs to one file) */
  reader(): LineReader;
}

export const FORMAT_NAMES = ['postfix', 'exim', 'kumomta', 'halon', 'powermta'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** The domain of an address, lower case; empty when it has none */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? ''
    : address
        .slice(at + 1)
        .replace(/>$/, '')
        .toLowerCase();
}

/**
 * A copy of `text` that keeps no reference to the chunk of log it was cut from. V8 keeps a substring's parent string
 * alive: a reply remembered for the whole run would otherwise pin its 256 KB chunk, and memory would grow with the log.
 * Every string kept past its chunk goes through here (V8 copies substrings shorter than 13 characters anyway).
 */
export function detach(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}
