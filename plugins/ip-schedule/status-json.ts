/**
 * Grouping statuses as JSON bytes, byte for byte what `JSON.stringify(groupingStatus(...))` gives, written straight
 * into a buffer: a full `GET /status` encodes every grouping's expanded schedule (10,000 IPs × 5 groupings of 30 days:
 * 82 MB), and building an object, then a string, per day cost most of the first such request's 1.7 s and left
 * millions of short strings to the collector. The `schedule` arrays, most of those bytes, are shared by the IPs of one
 * plan: an IP's encoded status refers to them rather than holding a copy (`Encoded`), so the warm-up table keeps about
 * 1.2 KB an IP of 5 groupings instead of 8 KB, and encoding an IP allocates its own bytes only.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { GroupingRecord } from '../../runtime/mod.ts';
import { formatDate, parseDate } from './dates.ts';
import { dailyVolumes, keptVolumesId, scheduleStatus } from './schedule.ts';

/** Encoded JSON: the text's own bytes, with `shared[i]` going in at byte `cuts[i]` of `own` */
export interface Encoded {
  readonly own: Buffer;
  readonly cuts: readonly number[];
  readonly shared: readonly Buffer[];
  /** Bytes of the whole text */
  readonly length: number;
}

/** Copies the whole text of `encoded` into `target` at `at`; answers where it ended */
export function copyEncoded(encoded: Encoded, target: Buffer, at: number): number {
  const { own, cuts, shared } = encoded;
  let from = 0;
  for (let i = 0; i < cuts.length; i++) {
    at += own.copy(target, at, from, cuts[i]);
    at += shared[i]!.copy(target, at);
    from = cuts[i]!;
  }
  return at + own.copy(target, at, from);
}

/**
 * A growing byte buffer, reused between IPs; `take()` and `takeEncoded()` copy out what was written and start again.
 * Bytes handed to `refer` are not copied in: they are kept by reference until taken
 */
export class JsonWriter {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  #at = 0;
  #cuts: number[] = [];
  #shared: Buffer[] = [];
  #sharedBytes = 0;

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
    // Most groupings have no properties
    if (value === null) this.ascii('null');
    else this.text(JSON.stringify(value));
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

  /** Bytes that stay the same while referred to, shared with other texts: copied only when taken as one buffer */
  refer(bytes: Buffer): void {
    this.#cuts.push(this.#at);
    this.#shared.push(bytes);
    this.#sharedBytes += bytes.length;
  }

  /** What was written, with its shared bytes referred to */
  takeEncoded(): Encoded {
    // A copy with `copy` (memcpy): Buffer.from of a view copies it byte by byte. Own bytes of a few groupings fit
    // the small-buffer pool, so an IP costs no allocation of its own
    const own = Buffer.allocUnsafe(this.#at);
    this.#buffer.copy(own, 0, 0, this.#at);
    const encoded = { own, cuts: this.#cuts, shared: this.#shared, length: this.#at + this.#sharedBytes };
    this.#at = 0;
    this.#cuts = [];
    this.#shared = [];
    this.#sharedBytes = 0;
    return encoded;
  }

  /** What was written, as one buffer */
  take(): Buffer {
    if (this.#shared.length === 0) return this.takeEncoded().own;
    const encoded = this.takeEncoded();
    const bytes = Buffer.allocUnsafe(encoded.length);
    copyEncoded(encoded, bytes, 0);
    return bytes;
  }
}

/**
 * Encoded `schedule` arrays by daily volumes and first day: IPs warmed from one plan share both, so a cold GET /status
 * refers to each array's bytes (most of a grouping's) rather than writing the dates and numbers of every day again.
 * The volumes arrays are the ones `dailyVolumes` keeps (one per AUTO ramp, one per frozen MANUAL grouping), known by
 * their number; the bytes are bounded, past which an array is encoded again when asked for (the texts that refer to
 * an evicted one keep it)
 */
/** A plan's encoded `"start":…,"end":…` members and `schedule` array */
interface PlanBytes {
  span: Buffer;
  schedule: Buffer;
}
const plans = new LRUCache<string, PlanBytes>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (plan) => plan.span.length + plan.schedule.length,
});
const planWriter = new JsonWriter();

function planBytes(volumes: readonly number[], id: number, first: number): PlanBytes {
  const key = `${id}/${first}`;
  let plan = plans.get(key);
  if (!plan) {
    writeSpan(planWriter, volumes, first);
    const span = planWriter.take();
    writeSchedule(planWriter, volumes, first);
    plan = { span, schedule: planWriter.take() };
    plans.set(key, plan);
  }
  return plan;
}

function writeSpan(out: JsonWriter, volumes: readonly number[], first: number): void {
  const last = volumes.length - 1;
  out.ascii(`"start":{"date":"${formatDate(first)}","volume":`);
  out.int(volumes[0]!);
  out.ascii(`},"end":{"date":"${formatDate(first + last)}","volume":`);
  out.int(volumes[last]!);
  out.ascii('}');
}

/** The JSON of the spec's enum values a grouping carries (mode, algorithm): a few, each encoded once */
const enums = new Map<string, Buffer>();

function enumBytes(value: string): Buffer {
  let bytes = enums.get(value);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(value));
    // Records are checked against the spec's enums on their way in; the bound only guards against a store's surprise
    if (enums.size < 64) enums.set(value, bytes);
  }
  return bytes;
}

function writeSchedule(out: JsonWriter, volumes: readonly number[], first: number): void {
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
}

/** Writes `JSON.stringify(groupingStatus(grouping, today, { named }))` */
export function writeGroupingStatus(out: JsonWriter, grouping: GroupingRecord, today: number, named: boolean): void {
  const volumes = dailyVolumes(grouping);
  const first = parseDate(grouping.start.date)!;
  // A volumes array made for this call alone (a MANUAL record not frozen, a ramp past those kept) is shared by no one
  const id = keptVolumesId(volumes);
  const plan = id === undefined ? undefined : planBytes(volumes, id, first);
  const { status, day } = scheduleStatus(grouping, today);
  out.ascii('{');
  if (named) {
    out.ascii('"grouping":');
    out.json(grouping.grouping);
    out.ascii(',');
  }
  out.ascii('"current_day":');
  out.int(day);
  out.ascii(',');
  if (plan) out.bytes(plan.span);
  else writeSpan(out, volumes, first);
  out.ascii(',"mode":');
  out.bytes(enumBytes(grouping.mode));
  out.ascii(`,"paused":${grouping.paused},"algorithm":`);
  out.bytes(enumBytes(grouping.algorithm));
  out.ascii(',"interval":');
  out.int(grouping.interval);
  out.ascii(',"properties":');
  out.json(grouping.properties);
  out.ascii(',"schedule":');
  if (plan) out.refer(plan.schedule);
  else writeSchedule(out, volumes, first);
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
): Promise<Encoded> {
  out.json(ip);
  out.ascii(':{"groupings":[');
  for (const [index, grouping] of groupings.entries()) {
    if (index > 0) out.ascii(',');
    writeGroupingStatus(out, grouping, today, false);
    await slice();
  }
  out.ascii(']}');
  return out.takeEncoded();
}
