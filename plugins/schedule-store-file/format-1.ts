/**
 * Store files of format 1: one JSON object `{"format": 1, "sequence", "ips", "policies"}`, rewritten whole by every
 * commit before Capstan 0.2. Read once, when such a file is opened, and migrated to the log format (`log-file.ts`)
 */
import type { AppliedPolicy } from '../../runtime/mod.ts';
import { deepFreeze, entryProblem, isObject, policyProblem, type Entry, type State } from './records.ts';

/** Why a file is refused and what the operator can do about it */
export type Refuse = (problem: string, advice: string, cause?: unknown) => Error;

export const RESTORE = 'restore it from a backup, or move it aside to start with no schedules';

/** The state a format 1 file holds; refuses a file it cannot trust, saying what is wrong and what to do */
export function readFormat1(text: string, refuse: Refuse): State {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw refuse(`not valid JSON, the file may be truncated (${(error as Error).message})`, RESTORE, error);
  }
  if (!isObject(data))
    throw refuse(`expected an object with "format", "sequence" and "ips", found "${JSON.stringify(data)}"`, RESTORE);
  if (data.format !== 1)
    throw refuse(`unknown format "${data.format}"`, 'open it with the Capstan version that wrote it');
  const { sequence, ips } = data;
  if (!Number.isSafeInteger(sequence) || (sequence as number) < 0) {
    throw refuse(
      `"sequence" must be a whole number of at least 0, found "${JSON.stringify(sequence)}"`,
      'set it to the highest "version" of its entries',
    );
  }
  if (!isObject(ips)) throw refuse(`"ips" must be an object, found "${JSON.stringify(ips)}"`, RESTORE);
  const entries = new Map<string, Entry>();
  for (const [ip, entry] of Object.entries(ips)) {
    const problem = entryProblem(entry, sequence as number);
    if (problem)
      throw refuse(`entry "${ip}" ${problem}`, 'correct or remove that entry, or restore the file from a backup');
    entries.set(ip, deepFreeze(entry as Entry));
  }
  const policies = new Map<string, AppliedPolicy>();
  const applied = data.policies ?? {};
  if (!isObject(applied)) throw refuse(`"policies" must be an object, found "${JSON.stringify(applied)}"`, RESTORE);
  for (const [id, policy] of Object.entries(applied)) {
    const problem = policyProblem(id, policy);
    if (problem)
      throw refuse(
        `applied policy "${id}" ${problem}`,
        'remove that entry (it would lapse anyway), or restore the file from a backup',
      );
    policies.set(id, deepFreeze(policy as AppliedPolicy));
  }
  return { sequence: sequence as number, ips: entries, policies };
}
