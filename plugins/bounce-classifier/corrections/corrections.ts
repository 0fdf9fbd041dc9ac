/**
 * Operators' corrections laid over the classifier's answers. Each host holds every correction in a map keyed by the
 * normalised text (the classifier's normaliser masks addresses, IPs and ids, so the same wording with other ones
 * matches): a lookup is one string-keyed Map read, and none at all while there are no corrections. The store is the
 * truth; the map is re-read from it once after every change, this host's or another's (`watch`).
 *
 * The key is this host's normaliser applied to the correction's message, not the normalised text stored with it: that
 * one is what the writing host's normaliser made of it, and a new normaliser (an upgrade, another classifier plugin, a
 * host of another version on the same database) would otherwise leave every older correction matching nothing
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntry, ClassifierModel, Logger, PluginAudit } from '../../../runtime/mod.ts';
import { errors } from '../errors.ts';
import { CorrectionsFull, type Correction, type CorrectionStore } from './store.ts';

/** A `POST /v1/corrections` body (the generated type of the schema's `anyOf` is `unknown`) */
export type CorrectionRequest = Pick<Correction, 'message' | 'bnac' | 'backoff' | 'note'>;

/** Where audit entries are kept besides the log: the schedule store's `appendAudit` (GET /v1/audit answers them) */
export type AuditSink = ((entries: readonly AuditEntry[]) => Promise<void>) | undefined;

export interface CorrectionsDeps {
  store: CorrectionStore;
  normalise: (message: string) => string;
  /** Corrections kept at most (`corrections.maxCount`) */
  maxCount: number;
  audit: PluginAudit;
  auditSink: AuditSink;
  log: Logger;
}

export class Corrections {
  readonly #deps: CorrectionsDeps;
  #byText = new Map<string, Correction>();
  // A correction never changes (a new one replaces it), so its key is normalised once per host, not on every re-read
  #keys = new Map<string, string>();
  #reading: Promise<void> | undefined;
  #again = false;

  private constructor(deps: CorrectionsDeps) {
    this.#deps = deps;
  }

  /** Reads the store and listens for changes; answers once the map holds what the store holds */
  static async open(deps: CorrectionsDeps): Promise<Corrections> {
    const corrections = new Corrections(deps);
    await deps.store.watch(() => void corrections.reload());
    await corrections.reload();
    return corrections;
  }

  /** Re-reads the store: one read at a time, and one more when a change arrived during it */
  reload(): Promise<void> {
    if (this.#reading) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      do {
        this.#again = false;
        try {
          const list = await this.#deps.store.list();
          const keys = new Map(list.map((c) => [c.id, this.#keyOf(c)]));
          // Two corrections whose messages this normaliser no longer tells apart: the later one (lists run oldest first) holds
          this.#byText = new Map(list.map((c) => [keys.get(c.id)!, c]));
          this.#keys = keys;
        } catch (error) {
          this.#deps.log.warn('Cannot read the corrections; the ones read before stay in force', {
            error: (error as Error).message,
          });
        }
      } while (this.#again);
      this.#reading = undefined;
    })();
    return this.#reading;
  }

  /** The class and correction id for a normalised text when a correction gives this model one */
  lookup(model: ClassifierModel, text: string): { label: string; id: string } | undefined {
    if (this.#byText.size === 0) return undefined;
    const found = this.#byText.get(text);
    const label = found?.[model];
    return label === undefined ? undefined : { label, id: found!.id };
  }

  /**
   * The corrections in the store (with `limit`, the newest ones), oldest first, each with the text it is matched on
   * here, and how many there are in all
   */
  async list(limit?: number): Promise<{ corrections: Correction[]; total: number }> {
    const read =
      limit === undefined
        ? this.#deps.store.list().then((all) => ({ corrections: all, total: all.length }))
        : this.#deps.store.newest(limit);
    const { corrections, total } = await read.catch((error: Error) => {
      throw errors.BOUNCE_ERR_CORRECTIONS_READ(error.message);
    });
    return { corrections: corrections.map((c) => this.#matchedHere(c)), total };
  }

  /** The correction each message is answered with on this host now, or null: the map, not the store */
  match(messages: readonly string[]): (Correction | null)[] {
    return messages.map((message) => {
      const found = this.#byText.size === 0 ? undefined : this.#byText.get(this.#deps.normalise(message));
      return found ? this.#matchedHere(found) : null;
    });
  }

  async create(request: CorrectionRequest, principal: string | undefined): Promise<Correction> {
    const correction: Correction = {
      id: randomUUID(),
      message: request.message,
      normalised: this.#deps.normalise(request.message),
      ...(request.bnac ? { bnac: request.bnac } : {}),
      ...(request.backoff ? { backoff: request.backoff } : {}),
      ...(request.note !== undefined ? { note: request.note } : {}),
      created: new Date().toISOString(),
      principal: principal ?? 'anonymous',
    };
    const before = this.#byText.get(correction.normalised) ?? null;
    await this.#deps.audit.record(
      {
        action: before ? 'correction.replace' : 'correction.create',
        subject: { correction: correction.id },
        principal,
        before,
        after: correction,
      },
      async (entry) => {
        // The store replaces by the text stored with a correction: one stored under another normaliser's text is the
        // same reply all the same, and must not come back when the new one is deleted
        const replacing = before && before.normalised !== correction.normalised ? before.id : undefined;
        await this.#deps.store
          .put(correction, { maxCount: this.#deps.maxCount, ...(replacing ? { replacing } : {}) })
          .catch(writeFailed);
        await this.#keep(entry);
        return correction;
      },
    );
    await this.#ownChangeRead();
    return correction;
  }

  /** Removes one; undefined when no correction has this id */
  async delete(id: string, principal: string | undefined): Promise<Correction | undefined> {
    const existing = [...this.#byText.values()].find((c) => c.id === id);
    const removed = await this.#deps.audit.record(
      { action: 'correction.delete', subject: { correction: id }, principal, before: existing ?? null, after: null },
      async (entry) => {
        const gone = await this.#deps.store.delete(id).catch(writeFailed);
        if (gone) await this.#keep(entry);
        return gone;
      },
    );
    await this.#ownChangeRead();
    return removed;
  }

  close(): Promise<void> {
    return this.#deps.store.close();
  }

  // The store's watch started a read for this host's change before the write resolved (CorrectionStore.watch):
  // waiting for it, rather than asking for another, answers the change once the map holds it with one read
  #ownChangeRead(): Promise<void> {
    return this.#reading ?? Promise.resolve();
  }

  /** A correction as the API answers it: with the text it is matched on here */
  #matchedHere(correction: Correction): Correction {
    return { ...correction, normalised: this.#keyOf(correction) };
  }

  /** The text a correction is matched on here: normalised once per correction (`#keys` holds those of the last read) */
  #keyOf(correction: Correction): string {
    return this.#keys.get(correction.id) ?? this.#deps.normalise(correction.message);
  }

  // The change is made: an audit store that fails is logged, never undoes it
  async #keep(entry: AuditEntry): Promise<void> {
    await this.#deps
      .auditSink?.([entry])
      .catch((error: Error) =>
        this.#deps.log.warn('Cannot keep the audit entry of a correction', { error: error.message }),
      );
  }
}

// A store's refusal as the API answers it: the limit is the client's to see, anything else (a full disk, a database
// out of reach) a 503 that changed nothing. A system call's failure is named by its code (`ENOSPC`); a database's
// code (`57P01`) would tell the operator less than its message
function writeFailed(error: Error): never {
  if (error instanceof CorrectionsFull) throw errors.BOUNCE_ERR_CORRECTIONS_FULL(error.kept, error.max);
  const { syscall, code } = error as NodeJS.ErrnoException;
  throw errors.BOUNCE_ERR_CORRECTIONS_WRITE(syscall !== undefined && code !== undefined ? code : error.message);
}
