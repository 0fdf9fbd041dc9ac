/**
 * The one registry of Capstan's error codes. Codes are stable; messages follow Deno std style:
 * sentence case, values in quotes, no final period.
 */
export const ERRORS = {
  HOST_ERR_BAD_REQUEST: { status: 400, expose: true },
  HOST_ERR_INVALID_JSON: { status: 400, expose: true },
  HOST_ERR_CONTENT_TYPE: { status: 400, expose: true },
  HOST_ERR_VALIDATION: { status: 400, expose: true },
  HOST_ERR_BODY_TOO_DEEP: { status: 400, expose: true },
  // Nothing reaches the client, whose connection is gone; the status only marks it as the client's doing
  HOST_ERR_ABORTED: { status: 400, expose: true },
  HOST_ERR_UNAUTHORIZED: { status: 401, expose: true },
  HOST_ERR_NOT_FOUND: { status: 404, expose: true },
  HOST_ERR_METHOD: { status: 405, expose: true },
  HOST_ERR_BODY_TOO_LARGE: { status: 413, expose: true },
  HOST_ERR_UPGRADE_REQUIRED: { status: 426, expose: true },
  HOST_ERR_INTERNAL: { status: 500, expose: false },
  HOST_ERR_NOT_IMPLEMENTED: { status: 501, expose: true },
  HOST_ERR_UNAVAILABLE: { status: 503, expose: true },
  HOST_ERR_STARTUP: { status: 500, expose: false },
  HOST_ERR_TLS_KEY: { status: 500, expose: false },
  PLUGIN_ERR_LOAD: { status: 500, expose: false },
  PLUGIN_ERR_MANIFEST: { status: 500, expose: false },
  PLUGIN_ERR_VERSION: { status: 500, expose: false },
  PLUGIN_ERR_CONFIG: { status: 500, expose: false },
  PLUGIN_ERR_OPERATION: { status: 500, expose: false },
  PLUGIN_ERR_SERVICE: { status: 500, expose: false },
  PLUGIN_ERR_SETUP: { status: 500, expose: false },
  POOL_ERR_QUEUE_FULL: { status: 503, expose: true },
  STORE_ERR_CONFLICT: { status: 409, expose: true },
  STORE_ERR_IO: { status: 500, expose: false },
  CONFIG_ERR_INVALID: { status: 500, expose: false },
  CONFIG_ERR_READ: { status: 500, expose: false },
} as const satisfies Record<string, { status: number; expose: boolean }>;

/** A stable error code from the registry */
export type ErrorCode = keyof typeof ERRORS;

/** An error carrying a registry code; `expose` decides whether clients see its message */
export class CapstanError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly expose: boolean;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CapstanError';
    this.code = code;
    this.status = options?.status ?? ERRORS[code].status;
    this.expose = ERRORS[code].expose;
  }
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'HOST_ERR_BAD_REQUEST',
  401: 'HOST_ERR_UNAUTHORIZED',
  404: 'HOST_ERR_NOT_FOUND',
  409: 'STORE_ERR_CONFLICT',
  413: 'HOST_ERR_BODY_TOO_LARGE',
  501: 'HOST_ERR_NOT_IMPLEMENTED',
  503: 'HOST_ERR_UNAVAILABLE',
};

/** An error a handler throws to answer `{"error": message}` with the given status */
export function httpError(status: number, message: string): CapstanError {
  // Every 4xx code of the registry is exposed, so clients see the handler's message; a 500 shows only its status text
  return new CapstanError(CODE_BY_STATUS[status] ?? (status < 500 ? 'HOST_ERR_BAD_REQUEST' : 'HOST_ERR_INTERNAL'), message, { status });
}
