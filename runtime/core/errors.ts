/**
 * Capstan's error codes, modelled on fastify's error list: each code has a status, an exposure and a message template,
 * and an error is made from its code and the template's values. The host's own codes, and `defineErrors` for plugins,
 * live in `host-errors.ts`.
 *
 * @example
 * ```ts
 * const errors = errorSet({
 *   SCHEDULE_ERR_IP_NOT_FOUND: { status: 404, expose: true, message: 'IP "%s" not found' },
 * });
 * throw errors.SCHEDULE_ERR_IP_NOT_FOUND('192.0.2.1'); // 404 {"error": "IP \"192.0.2.1\" not found"}
 * ```
 */

/** One code: its HTTP status, whether clients see the message, and the message template */
export interface ErrorSpec {
  status: number;
  /** False: clients get only the status text, the message goes to the log */
  expose: boolean;
  /**
   * Sentence case, no final period. `%s` stands for a value, written in double quotes (`"%s"`) or as the detail after a
   * colon (`: %s`); `%d` for a number, which needs no quotes.
   */
  message: string;
  /**
   * Seconds a client should wait before retrying, sent as `Retry-After`: for faults that pass by themselves (a store
   * that cannot be reached). Since plugin API 1.3
   */
  retryAfter?: number;
}

/** The values a template takes, one per placeholder, in order */
export type TemplateValues<T extends string> = T extends `${string}%${'s' | 'd'}${infer Rest}`
  ? [string | number, ...TemplateValues<Rest>]
  : [];

/** Options of a created error: the error that caused it */
export interface CreateOptions {
  cause?: unknown;
}

/** Makes the error of one code from its template's values (and, last, optional `{ cause }`); carries the code's entry */
export interface ErrorFactory<T extends string = string> {
  (...args: [...TemplateValues<T>, options?: CreateOptions]): CapstanError;
  readonly code: string;
  readonly status: number;
  readonly expose: boolean;
  readonly message: T;
  readonly retryAfter?: number;
}

/** A set of codes as `defineErrors` answers it: a factory per code */
export type ErrorSet<T extends Record<string, ErrorSpec> = Record<string, ErrorSpec>> = {
  readonly [K in keyof T & string]: ErrorFactory<T[K]['message']>;
};

/** An error carrying a code; `expose` decides whether clients see its message */
export class CapstanError extends Error {
  readonly code: string;
  readonly status: number;
  readonly expose: boolean;
  /** Seconds the answer's `Retry-After` asks the client to wait, when its code sets `retryAfter` */
  readonly retryAfter?: number;
  /** Factories of `defineErrors` make these; the direct form stays for code written against plugin API 1.0 and 1.1 */
  constructor(
    code: string,
    message: string,
    options?: { cause?: unknown; status?: number; expose?: boolean; retryAfter?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CapstanError';
    this.code = code;
    const known = HOST_SPECS.get(code) ?? LEGACY_SPECS[code];
    this.status = options?.status ?? known?.status ?? 500;
    this.expose = options?.expose ?? known?.expose ?? this.status < 500;
    const retryAfter = options?.retryAfter ?? HOST_SPECS.get(code)?.retryAfter;
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
  }
}

/** The host's codes, filled by `hostErrorSet`: their status and exposure apply to `new CapstanError(code, message)` */
const HOST_SPECS = new Map<string, ErrorSpec>();

/**
 * Codes of plugin API 1.0 and 1.1 that 1.2 split into templated ones: plugins written against 1.x may still throw
 * `new CapstanError(code, message)` with them, and keep the status and exposure they had
 */
const LEGACY_SPECS: Readonly<Record<string, { status: number; expose: boolean }>> = {
  HOST_ERR_BAD_REQUEST: { status: 400, expose: true },
  HOST_ERR_UNAUTHORIZED: { status: 401, expose: true },
  HOST_ERR_INTERNAL: { status: 500, expose: false },
  HOST_ERR_UNAVAILABLE: { status: 503, expose: true },
  HOST_ERR_STARTUP: { status: 500, expose: false },
  PLUGIN_ERR_SERVICE: { status: 500, expose: false },
  STORE_ERR_CONFLICT: { status: 409, expose: true },
  STORE_ERR_IO: { status: 500, expose: false },
};

const CODE_RE = /^[A-Z][A-Z0-9]*_ERR_[A-Z0-9_]+$/;
const PLACEHOLDER_RE = /%[sd]/g;

/** What is wrong with a code's name or entry, if anything */
export function specProblem(code: string, spec: ErrorSpec): string | undefined {
  if (!CODE_RE.test(code)) return 'codes are upper case with "_ERR_" after a prefix, such as "MYPLUGIN_ERR_NOT_FOUND"';
  if (!Number.isInteger(spec?.status) || spec.status < 400 || spec.status > 599)
    return '"status" must be an HTTP error status (400 to 599)';
  if (typeof spec.expose !== 'boolean') return '"expose" must be true or false';
  if (typeof spec.message !== 'string' || spec.message.trim() === '') return '"message" must be a template';
  if (spec.retryAfter !== undefined && !(Number.isInteger(spec.retryAfter) && spec.retryAfter >= 1))
    return '"retryAfter" must be a whole number of seconds, at least 1';
  return undefined;
}

function factory(code: string, spec: ErrorSpec): ErrorFactory {
  const template = spec.message;
  const count = template.match(PLACEHOLDER_RE)?.length ?? 0;
  const create = (...args: unknown[]): CapstanError => {
    const options = args.length > count ? (args[count] as CreateOptions | undefined) : undefined;
    let i = 0;
    const message = template.replace(PLACEHOLDER_RE, () => String(args[i++]));
    return new CapstanError(code, message, {
      cause: options?.cause,
      status: spec.status,
      expose: spec.expose,
      retryAfter: spec.retryAfter,
    });
  };
  // The template is the factory's `message`; Function's own `name` and `length` are left alone
  const retry = spec.retryAfter === undefined ? {} : { retryAfter: spec.retryAfter };
  return Object.assign(create, {
    code,
    status: spec.status,
    expose: spec.expose,
    message: template,
    ...retry,
  }) as ErrorFactory;
}

/** A factory per code of checked `specs` (see `specProblem`) */
export function errorSet<const T extends Record<string, ErrorSpec>>(specs: T): ErrorSet<T> {
  return Object.freeze(
    Object.fromEntries(Object.entries(specs).map(([code, spec]) => [code, factory(code, spec)])),
  ) as ErrorSet<T>;
}

/** The host's own set, whose codes `CapstanError` knows by name; only `host-errors.ts` calls this */
export function hostErrorSet<const T extends Record<string, ErrorSpec>>(specs: T): ErrorSet<T> {
  for (const [code, spec] of Object.entries(specs)) {
    const problem = specProblem(code, spec);
    if (problem) throw new Error(`Invalid error code "${code}": ${problem}`);
    HOST_SPECS.set(code, spec);
  }
  return errorSet(specs);
}

/** True for a code of the host's own set */
export function isHostCode(code: string): boolean {
  return HOST_SPECS.has(code);
}

/**
 * The ad-hoc form: an error answering `{"error": message}` with `status`, for code that has no registered code for it
 * (plugins written against plugin API 1.0 and 1.1). Messages of 4xx, 501 and 503 reach the client; other 5xx show only
 * the status text.
 */
export function httpError(status: number, message: string): CapstanError {
  return new CapstanError('HOST_ERR_HTTP', message, {
    status,
    expose: status < 500 || status === 501 || status === 503,
  });
}
