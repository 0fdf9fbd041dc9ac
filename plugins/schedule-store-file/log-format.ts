/**
 * The store file's format 2: checksummed blocks (`runtime/fs/checksummed-blocks.ts`) tagged `capstan-schedules/2`,
 * each a run of changes, one JSON object per line. A compaction writes the state as a snapshot (`{"sequence"}` then
 * one put per IP and policy); each group commit appends one block of the changes it made, with the audit entries of
 * its writes (`{"audit"}` lines: the block is what makes them durable, the audit file is written without a sync of
 * its own). Replaying every block in order gives the state and the audit entries since the last compaction (which
 * drops them, once the audit file is synced); replay is idempotent, so a change found both in a snapshot and after it
 * does no harm.
 */
import { encodeBlock, scanBlocks, type AppliedPolicy, type AuditEntry, type IpRecord } from '../../runtime/mod.ts';
import { RESTORE, type Refuse } from './format-1.ts';
import { deepFreeze, entryProblem, isObject, policyProblem, type State } from './records.ts';

export const TAG = 'capstan-schedules/2';
/** Characters of a snapshot block, about: each is one write and one checksum, and holds no more in one string */
const SNAPSHOT_BLOCK_CHARS = 64 * 1024;

/** One line of a block */
export type Change =
  | { sequence: number }
  | { ip: string; version: number; record: IpRecord }
  | { delete: string }
  | { policy: AppliedPolicy }
  | { deletePolicy: string }
  | { audit: AuditEntry };

export function changeLine(change: Change): string {
  return `${JSON.stringify(change)}\n`;
}

/** The state as blocks, to be written as a fresh file */
export function* snapshotBlocks(state: State): Generator<string> {
  let payload = changeLine({ sequence: state.sequence });
  const lines = function* () {
    for (const [ip, { version, record }] of state.ips) yield changeLine({ ip, version, record });
    for (const policy of state.policies.values()) yield changeLine({ policy });
  };
  for (const line of lines()) {
    payload += line;
    if (payload.length >= SNAPSHOT_BLOCK_CHARS) {
      yield encodeBlock(TAG, payload);
      payload = '';
    }
  }
  if (payload !== '') yield encodeBlock(TAG, payload);
}

/**
 * The state a format 2 file holds, and the bytes of its whole blocks. A damaged stretch at the end is a block torn
 * by a crash mid-append, never acknowledged: it is left out. Damage before a whole block is not a crash's doing and
 * refuses the file, as does a change that is not one
 */
export function replay(data: Buffer, refuse: Refuse): { state: State; size: number; audit: AuditEntry[] } {
  const state: State = { sequence: 0, ips: new Map(), policies: new Map() };
  const audit: AuditEntry[] = [];
  let torn: number | undefined;
  for (const block of scanBlocks(data)) {
    if (block.kind === 'damage') {
      torn = block.start;
      continue;
    }
    if (torn !== undefined) throw refuse(`damaged from byte ${torn} to ${block.start}, before whole blocks`, RESTORE);
    if (block.tag !== TAG)
      throw refuse(
        `unknown format "${block.tag}" at byte ${block.start}`,
        'open it with the Capstan version that wrote it',
      );
    for (const text of block.payload.toString('utf8').split('\n')) {
      if (text === '') continue;
      let change: unknown;
      try {
        change = JSON.parse(text);
      } catch (error) {
        throw refuse(
          `block at byte ${block.start} holds a line that is not JSON (${(error as Error).message})`,
          RESTORE,
          error,
        );
      }
      const problem = apply(state, audit, change);
      if (problem) throw refuse(`block at byte ${block.start}: ${problem}`, 'restore the file from a backup');
    }
  }
  return { state, size: torn ?? data.length, audit };
}

/** Applies a change read back (an audit entry is added to `audit`); what is wrong with it, or undefined */
function apply(state: State, audit: AuditEntry[], change: unknown): string | undefined {
  if (!isObject(change)) return `change "${JSON.stringify(change)}" is not an object`;
  if ('sequence' in change) {
    if (!Number.isSafeInteger(change.sequence) || (change.sequence as number) < 0)
      return `"sequence" "${JSON.stringify(change.sequence)}" is not a whole number of at least 0`;
    state.sequence = Math.max(state.sequence, change.sequence as number);
  } else if (typeof change.ip === 'string') {
    const entry = { record: change.record, version: change.version };
    const problem = entryProblem(entry, Number.MAX_SAFE_INTEGER);
    if (problem) return `entry "${change.ip}" ${problem}`;
    state.ips.set(change.ip, deepFreeze(entry as { record: IpRecord; version: number }));
    state.sequence = Math.max(state.sequence, entry.version as number);
  } else if (typeof change.delete === 'string') {
    state.ips.delete(change.delete);
  } else if (isObject(change.policy)) {
    const problem = policyProblem(String(change.policy.id), change.policy);
    if (problem) return `applied policy "${change.policy.id}" ${problem}`;
    state.policies.set(change.policy.id as string, deepFreeze(change.policy as unknown as AppliedPolicy));
  } else if (typeof change.deletePolicy === 'string') {
    state.policies.delete(change.deletePolicy);
  } else if (isObject(change.audit)) {
    const { id, time, subject } = change.audit;
    if (typeof id !== 'string' || typeof time !== 'string' || !isObject(subject))
      return `audit entry "${JSON.stringify(change.audit).slice(0, 200)}" has no "id", "time" or "subject"`;
    audit.push(change.audit as unknown as AuditEntry);
  } else {
    return `change "${JSON.stringify(change).slice(0, 200)}" is none the store writes`;
  }
  return undefined;
}
