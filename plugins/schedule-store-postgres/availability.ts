/**
 * Whether the PostgreSQL store can be written: which failures mean the database cannot be reached (a failover, a
 * restart, a partition, a timeout) rather than a fault of the store, and the readiness that follows from them.
 */

/** Longest the readiness probe may take: load balancers' probes (and the host's own limit, 2 s) time out soon after */
const PROBE_MS = 1500;
/** How long the outcome of the last write or probe answers readiness without asking the database again */
const FRESH_MS = 1000;

/** SQLSTATE classes and codes that pass by themselves: retrying later, on this or another connection, may succeed */
const TRANSIENT_CLASSES = new Set(['08', '53', '57']);
const TRANSIENT_CODES = new Set(['55P03', '40001', '40P01', '25006', '25P03']);

/**
 * What tells a client why the database cannot be reached, or undefined for any other failure (a bug, a constraint):
 * the server's own words for a transient SQLSTATE, the system code for a socket error (its message would name the
 * database's address), the driver's words for its own timeouts and lost connections, which carry no code
 */
export function unreachable(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return error.message;
  if (/^[0-9A-Z]{5}$/.test(code))
    return TRANSIENT_CLASSES.has(code.slice(0, 2)) || TRANSIENT_CODES.has(code) ? error.message : undefined;
  return code.startsWith('E') ? code : undefined;
}

/**
 * Readiness from what the store last saw: a write that succeeded or any operation that could not reach the database
 * answers for `FRESH_MS`; past that, one bounded probe (shared by concurrent checks) asks the database itself
 */
export class Health {
  readonly #probe: () => Promise<void>;
  #last: { at: number; failure: string | undefined } | undefined;
  #probing: Promise<void> | undefined;

  constructor(probe: () => Promise<void>) {
    this.#probe = probe;
  }

  /** Records the outcome of a write (a success) or of any operation (a failure to reach the database) */
  saw(failure: string | undefined): void {
    this.#last = { at: performance.now(), failure };
  }

  /** Resolves when the database can be written, else rejects naming why */
  async ready(): Promise<void> {
    if (this.#last === undefined || performance.now() - this.#last.at > FRESH_MS) {
      this.#probing ??= this.#probeOnce().finally(() => (this.#probing = undefined));
      await this.#probing;
    }
    if (this.#last?.failure !== undefined) throw new Error(`Database cannot be written: ${this.#last.failure}`);
  }

  async #probeOnce(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`no answer within ${PROBE_MS} ms`)), PROBE_MS);
    });
    try {
      await Promise.race([this.#probe(), late]);
      this.saw(undefined);
    } catch (error) {
      this.saw(unreachable(error) ?? (error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }
}
