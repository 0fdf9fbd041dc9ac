/**
 * The frames of the MTA's policy feed protocol (version 1), encoded once and shared by every client: each object's
 * JSON is kept with it, so a frame is a concatenation, not a fresh `JSON.stringify` per client.
 */
import type { Policy, Suspend } from './policies.ts';

/** Protocol version the client checks in the first frame */
const PROTOCOL_VERSION = 1;

/**
 * A policy or suspension as its JSON text, which every frame carrying it repeats: the feed holds one for each grouping
 * of every IP, and the text costs a fraction of the object it encodes (tens of thousands of IPs)
 */
export class FeedObject {
  constructor(
    readonly kind: 'policy' | 'suspend',
    readonly id: string,
    /** Its `type`, which the overview counts objects by */
    readonly type: string,
    readonly json: string,
  ) {}

  /** The object itself, parsed again at each call: for the rare reader of its fields */
  get value(): Policy | Suspend {
    return JSON.parse(this.json) as Policy | Suspend;
  }
}

/** A change of the feed state, in the order it must reach the clients */
export interface FeedChange {
  action: 'CREATE' | 'UPDATE' | 'DELETE';
  object: FeedObject;
}

export const VERSION_FRAME = Buffer.from(JSON.stringify({ action: 'VERSION', version: PROTOCOL_VERSION }));
export const SYNCED_FRAME = Buffer.from('{"action":"SYNCED"}');

/** The actions a frame may carry */
export type FrameAction = 'VERSION' | 'CREATE' | 'UPDATE' | 'DELETE' | 'SYNCED';

/** Every frame starts `{"action":"`, and the actions' first letters differ: a frame's action is one byte away */
const ACTION_AT = '{"action":"'.length;
const ACTION_BY_LETTER: Readonly<Record<number, FrameAction>> = {
  0x56: 'VERSION',
  0x43: 'CREATE',
  0x55: 'UPDATE',
  0x44: 'DELETE',
  0x53: 'SYNCED',
};

/** The action of a frame made here (`frame`, `VERSION_FRAME`, `SYNCED_FRAME`), read without parsing it */
export function frameAction(frame: Buffer): FrameAction {
  return ACTION_BY_LETTER[frame[ACTION_AT]!]!;
}

/** FIN and the text opcode: every feed frame is one whole text message */
const FIN_TEXT = 0x81;

/** Bytes of a frame header for a payload of `length` bytes (RFC 6455 5.2, unmasked) */
export function headerBytes(length: number): number {
  return length < 126 ? 2 : length < 65536 ? 4 : 10;
}

/** Writes the header of an unmasked text frame of `length` bytes at `offset`; answers the offset after it */
export function writeHeader(target: Buffer, offset: number, length: number): number {
  target[offset++] = FIN_TEXT;
  if (length < 126) {
    target[offset++] = length;
  } else if (length < 65536) {
    target[offset++] = 126;
    offset = target.writeUInt16BE(length, offset);
  } else {
    target[offset++] = 127;
    offset = target.writeBigUInt64BE(BigInt(length), offset);
  }
  return offset;
}

/**
 * `frames` as they go on the wire, unmasked WebSocket text frames one after another: the same bytes for every client,
 * so a change reaches each with one socket write of one buffer, built once however many clients there are
 */
export function wireFrames(frames: readonly Buffer[]): Buffer {
  const wire = Buffer.allocUnsafe(frames.reduce((sum, f) => sum + headerBytes(f.length) + f.length, 0));
  let offset = 0;
  for (const frame of frames) {
    offset = writeHeader(wire, offset, frame.length);
    offset += frame.copy(wire, offset);
  }
  return wire;
}

/** Wraps a policy or suspension */
export function feedObject(kind: FeedObject['kind'], value: Policy | Suspend): FeedObject {
  return new FeedObject(kind, value.id, value.type, JSON.stringify(value));
}

/** Objects of one IP (a few, in an array: a map per IP cost more than the objects) or the applied policies by key */
export type FeedObjects = readonly FeedObject[] | ReadonlyMap<string, FeedObject>;

function byKey(objects: FeedObjects): ReadonlyMap<string, FeedObject> {
  return Array.isArray(objects)
    ? new Map((objects as readonly FeedObject[]).map((object) => [`${object.kind}:${object.id}`, object]))
    : (objects as ReadonlyMap<string, FeedObject>);
}

/** The text frame of one change */
export function frame(change: FeedChange): Buffer {
  return Buffer.from(`{"action":"${change.action}","${change.object.kind}":${change.object.json}}`);
}

/**
 * The changes turning `before` into `after` (objects of one IP by id): creates and updates first, deletes last, so
 * that an IP moving from a suspension to a policy (or back) is never left with neither. An `UPDATE` may change only
 * `then` and `ttl`; a policy whose `type`, `fields` or `if` changed, and any changed suspension, is deleted and
 * created again.
 */
export function diff(was: FeedObjects, is: FeedObjects): FeedChange[] {
  const before = byKey(was);
  const after = byKey(is);
  const first: FeedChange[] = [];
  const last: FeedChange[] = [];
  for (const [key, object] of after) {
    const old = before.get(key);
    if (!old) first.push({ action: 'CREATE', object });
    else if (old.json === object.json) continue;
    else if (object.kind === 'policy' && sameScope(old.value as Policy, object.value as Policy))
      first.push({ action: 'UPDATE', object });
    else first.push({ action: 'DELETE', object: old }, { action: 'CREATE', object });
  }
  for (const [key, object] of before) if (!after.has(key)) last.push({ action: 'DELETE', object });
  return [...first, ...last];
}

/** Whether two versions of a policy differ only where an UPDATE may change them */
function sameScope(a: Policy, b: Policy): boolean {
  return (
    a.type === b.type &&
    JSON.stringify(a.fields) === JSON.stringify(b.fields) &&
    JSON.stringify(a.if) === JSON.stringify(b.if)
  );
}
