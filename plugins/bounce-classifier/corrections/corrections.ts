/**
 * Operators' corrections laid over the classifier's answers. Each host holds every correction in a map keyed by the
 * normalised text (the classifier's normaliser masks addresses, IPs and ids, so the same wording with other ones
 * matches): a lookup is one string-keyed Map read, and none at all while there are no corrections. The store is the
 * truth; the map is re-read from it once after every change, this host's or another's (`watch`)
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntry, ClassifierModel, Logger, PluginAudit } from '../../../runtime/mod.ts';
import type { Correction, CorrectionStore } from './store.ts';

/** A `POST /v1/corrections` body (the generated type of the schema's `anyOf` is `unknown`) */
export type CorrectionRequest = Pick<Correction, 'message' | 'bnac' | 'backoff' | 'note'>;

/** Where audit entries are kept besides the log: the schedule store's `appendAudit` (GET /v1/audit answers them) */
export type AuditSink = ((entries: readonly AuditEntry[]) => Promise<void>) | undefined;

export interface CorrectionsDeps {
  store: CorrectionStore;
  normalise: (message: string) => string;
  audit: PluginAudit;
  auditSink: AuditSink;
  log: Logger;
}

export class Corrections {
  readonly #deps: CorrectionsDeps;
  #byText = new Map<string, Correction>();
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
          this.#byText = new Map(list.map((c) => [c.normalised, c]));
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

  list(): Promise<Correction[]> {
    return this.#deps.store.list();
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
        await this.#deps.store.put(correction);
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
        const gone = await this.#deps.store.delete(id);
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

  // The change is made: an audit store that fails is logged, never undoes it
  async #keep(entry: AuditEntry): Promise<void> {
    await this.#deps
      .auditSink?.([entry])
      .catch((error: Error) =>
        this.#deps.log.warn('Cannot keep the audit entry of a correction', { error: error.message }),
      );
  }
}
