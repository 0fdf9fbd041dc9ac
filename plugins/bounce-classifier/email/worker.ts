import { CapstanError } from '../../../runtime/mod.ts';
import { readBounce } from './parse.ts';
import type { BounceReport } from './types.ts';

/** A pool task's answer: the report, or the error the email got (a CapstanError does not cross threads as itself) */
export type ReadAnswer = { report: BounceReport } | { refused: { code: string; message: string; status: number } };

/** Pool task: reads an email `scanEmail` kept (`readBounce`) off the request thread */
export default async function readTask(kept: Uint8Array): Promise<ReadAnswer> {
  try {
    return { report: await readBounce(Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength)) };
  } catch (error) {
    if (error instanceof CapstanError && error.expose)
      return { refused: { code: error.code, message: error.message, status: error.status } };
    throw error;
  }
}
