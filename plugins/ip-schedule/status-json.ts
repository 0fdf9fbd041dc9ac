/**
 * Grouping statuses as JSON bytes, byte for byte what `JSON.stringify(groupingStatus(...))` gives, written straight
 * into a buffer: a full `GET /status` encodes every grouping's expanded schedule (10,000 IPs × 5 groupings of 30 days:
 * 82 MB), and building an object, then a string, per day cost most of the first such request's 1.7 s and left
 * millions of short strings to the collector. The warm-up table keeps each IP's encoded answer; kept here are only the
 * `schedule` arrays that IPs of one plan share.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { GroupingRecord } from '../../runtime/mod.ts';
import { formatDate, parseDate } from './dates.ts';
import { dailyVolumes, scheduleStatus } from './schedule.ts';

/** A growing byte buffer, reused between IPs; `take()` copies out what was written and starts again */
export class JsonWriter {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  #at = 0;

  #room(bytes: number): void {
    if (this.#at + bytes <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#at + bytes));
    this.#buffer.copy(grown, 0, 0, this.#at);
    this.#buffer = grown;
  }

  /** Text known to be ASCII (JSON punctuation, dates, enum values) */
  ascii(text: string): void {
    this.#room(text.length);
    const buffer = this.#buffer;
    let at = this.#at;
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
    this.#at = at;
  }

  /** Any text, as UTF-8 */
  text(text: string): void {
    this.#room(Buffer.byteLength(text));
    this.#at += this.#buffer.write(text, this.#at, 'utf8');
  }

  /** Any JSON value, as JSON.stringify writes it */
  json(value: unknown): void {
    this.text(JSON.stringify(value));
  }

  /** Bytes already encoded */
  bytes(bytes: Buffer): void {
    this.#room(bytes.length);
    bytes.copy(this.#buffer, this.#at);
    this.#at += bytes.length;
  }

  /** A non-negative safe integer; others as JSON.stringify writes them */
  int(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) return this.ascii(JSON.stringify(n));
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.#room(digits);
    const buffer = this.#buffer;
    let rest = n;
    for (let i = this.#at + digits - 1; i >= this.#at; i--) {
      buffer[i] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.#at += digits;
  }

  take(): Buffer {
    // A copy with `copy` (memcpy): Buffer.from of a view copies it byte by byte
    const bytes = Buffer.allocUnsafe(this.#at);
    this.#buffer.copy(bytes, 0, 0, this.#at);
    this.#at = 0;
    return bytes;
  }
}

/**
 * Encoded `schedule` arrays by daily volumes and first day: IPs warmed from one plan share both, so a cold GET /status
 * copies each array's bytes (most of a grouping's) rather than writing the dates and numbers of every day again. The
 * volumes arrays are the ones `dailyVolumes` keeps (one per AUTO ramp, one per frozen MANUAL grouping), known here by
 * a number; the bytes are bounded, past which an array is encoded again when asked for
 */
const volumesIds = new WeakMap<readonly number[], number>();
let nextVolumesId = 0;
const schedules = new LRUCache<string, Buffer>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (bytes) => bytes.length });
const scheduleWriter = new JsonWriter();

function scheduleBytes(volumes: readonly number[], first: number): Buffer {
  let id = volumesIds.get(volumes);
  if (id === undefined) volumesIds.set(volumes, (id = nextVolumesId++));
  const key = `${id}/${first}`;
  let bytes = schedules.get(key);
  if (!bytes) {
    const out = scheduleWriter;
    out.ascii('[');
    for (let index = 0; index < volumes.length; index++) {
      out.ascii(index === 0 ? '{"date":"' : ',{"date":"');
      out.ascii(formatDate(first + index));
      out.ascii('","day":');
      out.int(index + 1);
      out.ascii(',"messages":');
      out.int(volumes[index]!);
      out.ascii('}');
    }
    out.ascii(']');
    bytes = out.take();
    schedules.set(key, bytes);
  }
  return bytes;
}

/** Writes `JSON.stringify(groupingStatus(grouping, today, { named }))` */
export function writeGroupingStatus(out: JsonWriter, grouping: GroupingRecord, today: number, named: boolean): void {
  const volumes = dailyVolumes(grouping);
  const first = parseDate(grouping.start.date)!;
  const last = volumes.length - 1;
  const { status, day } = scheduleStatus(grouping, today);
  out.ascii('{');
  if (named) {
    out.ascii('"grouping":');
    out.json(grouping.grouping);
    out.ascii(',');
  }
  out.ascii('"current_day":');
  out.int(day);
  out.ascii(`,"start":{"date":"${formatDate(first)}","volume":`);
  out.int(volumes[0]!);
  out.ascii(`},"end":{"date":"${formatDate(first + last)}","volume":`);
  out.int(volumes[last]!);
  out.ascii('},"mode":');
  out.json(grouping.mode);
  out.ascii(`,"paused":${grouping.paused},"algorithm":`);
  out.json(grouping.algorithm);
  out.ascii(',"interval":');
  out.int(grouping.interval);
  out.ascii(',"properties":');
  out.json(grouping.properties);
  out.ascii(',"schedule":');
  out.bytes(scheduleBytes(volumes, first));
  out.ascii(`,"status":"${status}"`);
  const hold = grouping.warmup?.hold;
  if (hold) {
    out.ascii(',"hold":');
    out.json({ since: hold.since, reason: hold.reason });
  }
  out.ascii('}');
}

/** Waits for the event loop's next turn once the caller has held it for `ms` since the last turn */
export function timeSlice(ms: number): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await nextTurn();
    since = performance.now();
  };
}

/**
 * An IP's `"ip":{"groupings":[…]}` member of the GET /status answer, letting other requests run between groupings:
 * an IP's expanded schedules may take longer to encode than any one client should wait for another
 */
export async function encodeIpStatus(
  out: JsonWriter,
  ip: string,
  groupings: readonly GroupingRecord[],
  today: number,
  slice: () => Promise<void>,
): Promise<Buffer> {
  out.json(ip);
  out.ascii(':{"groupings":[');
  for (const [index, grouping] of groupings.entries()) {
    if (index > 0) out.ascii(',');
    writeGroupingStatus(out, grouping, today, false);
    await slice();
  }
  out.ascii(']}');
  return out.take();
}
