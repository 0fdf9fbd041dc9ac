/**
 * The host's error codes (`HOST_ERR_*`, `PLUGIN_ERR_*`, `POOL_ERR_*`, `CONFIG_ERR_*`), and `defineErrors`, with
 * which plugins register their own. Codes are stable; `docs/errors.md` lists every code (`npm run errors-doc`).
 */
import { errorSet, hostErrorSet, isHostCode, specProblem, type ErrorSet, type ErrorSpec } from './errors.ts';

/** Every code of the host */
export const hostErrors = hostErrorSet({
  HOST_ERR_HTTP: {
    status: 500,
    expose: false,
    // The ad-hoc form (`httpError(status, message)`): the message is the caller's, the status its argument
    message: '%s',
  },
  HOST_ERR_INVALID_JSON: { status: 400, expose: true, message: 'Malformed JSON body: %s' },
  HOST_ERR_CONTENT_TYPE: { status: 400, expose: true, message: 'Unsupported content type "%s": send "%s"' },
  HOST_ERR_CHARSET: { status: 400, expose: true, message: 'Unsupported charset "%s": send JSON in "utf-8"' },
  HOST_ERR_BODY_REQUIRED: { status: 400, expose: true, message: 'Request body is required: send a JSON object' },
  HOST_ERR_BODY_REQUIRED_TYPE: { status: 400, expose: true, message: 'Request body is required: send "%s"' },
  // The validator's sentence, which starts with the path of the field as `capstan config check` prints it
  HOST_ERR_VALIDATION: { status: 400, expose: true, message: '%s' },
  HOST_ERR_BODY_TOO_DEEP: {
    status: 400,
    expose: true,
    message: 'Request body nests arrays and objects deeper than the limit of %d',
  },
  // Nothing reaches the client, whose connection is gone; the status only marks it as the client's doing
  HOST_ERR_ABORTED: { status: 400, expose: true, message: 'Client closed the connection before the body was complete' },
  HOST_ERR_KEY_MISSING: { status: 401, expose: true, message: 'Missing API key: send it in the "%s" header' },
  HOST_ERR_KEY_INVALID: { status: 401, expose: true, message: 'Invalid API key in the "%s" header' },
  HOST_ERR_NOT_FOUND: { status: 404, expose: true, message: 'No route for "%s"' },
  HOST_ERR_PAGE_PATH: { status: 400, expose: true, message: 'Invalid page path "%s"' },
  HOST_ERR_NO_PAGE: { status: 404, expose: true, message: 'No page "%s"' },
  HOST_ERR_HOST_OPERATION: { status: 500, expose: false, message: 'Host operation "%s" has no handler' },
  HOST_ERR_METHOD: { status: 405, expose: true, message: 'Method "%s" is not allowed on "%s"' },
  HOST_ERR_UPGRADE_REQUIRED: { status: 426, expose: true, message: 'Upgrade required: open "%s" as a web socket' },
  HOST_ERR_BODY_TOO_LARGE: { status: 413, expose: true, message: 'Request body is larger than the limit of %d bytes' },
  HOST_ERR_RESPONSE: {
    status: 500,
    expose: false,
    message: 'Response %d of operation "%s" does not match the spec: %s',
  },
  HOST_ERR_NOT_IMPLEMENTED: {
    status: 501,
    expose: true,
    message: 'Operation "%s" is not implemented: no plugin serves it',
  },
  HOST_ERR_SETTING_NUMBER: {
    status: 500,
    expose: false,
    message: 'Invalid "%s" "%s": expected a whole number of at least %d',
  },
  HOST_ERR_SETTING_EXEMPT: {
    status: 500,
    expose: false,
    message: 'Invalid "CAPSTAN_AUTH_EXEMPT" path "%s": paths start with "/"',
  },
  HOST_ERR_SETTING_TIMEOUTS: {
    status: 500,
    expose: false,
    message: 'Invalid "CAPSTAN_HEADERS_TIMEOUT_MS" "%d": must not exceed "CAPSTAN_REQUEST_TIMEOUT_MS" "%d"',
  },
  HOST_ERR_SETTING_TLS_VERSION: {
    status: 500,
    expose: false,
    message: 'Invalid "CAPSTAN_TLS_MIN_VERSION" "%s": expected "%s"',
  },
  HOST_ERR_SETTING_PORT: {
    status: 500,
    expose: false,
    message: 'Invalid "%s" "%s": expected a port from 0 to 65535',
  },
  HOST_ERR_SETTING_LOG_LEVEL: {
    status: 500,
    expose: false,
    message: 'Invalid "CAPSTAN_LOG_LEVEL" "%s": expected "%s"',
  },
  HOST_ERR_UNKNOWN_USER: { status: 500, expose: false, message: 'Unknown user "%s"' },
  HOST_ERR_UNKNOWN_GROUP: { status: 500, expose: false, message: 'Unknown group "%s"' },
  HOST_ERR_SOCKET_IN_THE_WAY: {
    status: 500,
    expose: false,
    message: 'Cannot listen on "%s": a file that is not a socket is in the way',
  },
  HOST_ERR_LISTEN: { status: 500, expose: false, message: 'Cannot listen on "%s": %s' },
  HOST_ERR_TLS_CIPHERS: { status: 500, expose: false, message: 'Cannot serve https with ciphers "%s": %s' },
  HOST_ERR_TLS_KEY: { status: 500, expose: false, message: 'Cannot serve https server "%s": %s' },
  HOST_ERR_TLS_NO_CERTIFICATE: {
    status: 500,
    expose: false,
    message: 'Cannot serve https server "%s": key "%s" has no certificate',
  },
  HOST_ERR_TLS_READ_KEY: { status: 500, expose: false, message: 'Cannot read private key "%s": %s' },
  HOST_ERR_TLS_READ_CERTIFICATE: { status: 500, expose: false, message: 'Cannot read certificate "%s": %s' },
  PLUGIN_ERR_NOT_BUILTIN: {
    status: 500,
    expose: false,
    message: 'Cannot load plugin "%s": no built-in plugin has that id',
  },
  PLUGIN_ERR_NOT_FOUND: { status: 500, expose: false, message: 'Cannot load plugin "%s": "%s" does not exist' },
  PLUGIN_ERR_LOAD: { status: 500, expose: false, message: 'Cannot load plugin "%s" from "%s": %s' },
  PLUGIN_ERR_MANIFEST: { status: 500, expose: false, message: 'Cannot load plugin "%s": %s' },
  PLUGIN_ERR_VERSION: {
    status: 500,
    expose: false,
    message: 'Cannot load plugin "%s": it supports plugin API "%s", this host has "%s"',
  },
  PLUGIN_ERR_ERROR_CODE: { status: 500, expose: false, message: 'Invalid error code "%s": %s' },
  PLUGIN_ERR_DUPLICATE_CODE: {
    status: 500,
    expose: false,
    message: 'Cannot load plugin "%s": error code "%s" is already registered by plugin "%s"',
  },
  PLUGIN_ERR_COMMAND_HOST: {
    status: 500,
    expose: false,
    message: 'Cannot add command "%s" of plugin "%s": the host has a command of that name',
  },
  PLUGIN_ERR_COMMAND_TAKEN: {
    status: 500,
    expose: false,
    message: 'Cannot add command "%s" of plugin "%s": plugin "%s" adds a command of that name',
  },
  PLUGIN_ERR_CONFIG: { status: 500, expose: false, message: 'Invalid config for plugin "%s": %s' },
  PLUGIN_ERR_SERVICE_CYCLE: {
    status: 500,
    expose: false,
    message: 'Cannot start plugin "%s": services depend on each other in a cycle ("%s")',
  },
  PLUGIN_ERR_SERVICE_MISSING: {
    status: 500,
    expose: false,
    message: 'Cannot start plugin "%s": its service "%s" names plugin "%s", which is not in "plugins"',
  },
  PLUGIN_ERR_SERVICE_KIND: {
    status: 500,
    expose: false,
    message: 'Cannot start plugin "%s": plugin "%s" provides no "%s" service',
  },
  PLUGIN_ERR_CONTRACT: {
    status: 500,
    expose: false,
    message: 'Cannot start plugin "%s": plugin "%s" does not implement "%s": %s',
  },
  PLUGIN_ERR_SETUP: { status: 500, expose: false, message: 'Cannot start plugin "%s": %s' },
  PLUGIN_ERR_API: { status: 500, expose: false, message: 'Plugin "%s" serves unknown API "%s"' },
  PLUGIN_ERR_SOCKET_AND_HANDLER: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" serves operation "%s" both as a handler and as a socket: keep one',
  },
  PLUGIN_ERR_SOCKET_METHOD: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" serves operation "%s" as a socket, but only a GET operation can be upgraded to a web socket',
  },
  PLUGIN_ERR_NO_API: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" has handlers but names no "api" in its manifest',
  },
  PLUGIN_ERR_HOST_API: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" serves API "host", which only the host serves',
  },
  PLUGIN_ERR_AUTH: { status: 500, expose: false, message: 'Plugin "%s" returned an invalid "auth": %s' },
  PLUGIN_ERR_PAGES: {
    status: 500,
    expose: false,
    message: 'Cannot serve pages of plugin "%s" at "%s" on server "%s": %s',
  },
  PLUGIN_ERR_METRIC: { status: 500, expose: false, message: 'Cannot declare metric "%s" of "%s": %s' },
  PLUGIN_ERR_OPERATION: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" has a handler for unknown operation "%s" of API "%s"',
  },
  POOL_ERR_UNKNOWN: { status: 500, expose: false, message: 'Unknown thread pool "%s": add it to "threads.scripts"' },
  POOL_ERR_QUEUE_FULL: { status: 503, expose: true, message: 'Worker pool queue is full: retry later' },
  CONFIG_ERR_READ: { status: 500, expose: false, message: 'Cannot read "%s": %s' },
  CONFIG_ERR_TOO_LARGE: {
    status: 500,
    expose: false,
    message: 'Cannot check "%s": it has "%s" bytes, and a configuration file may have at most "%s"',
  },
  CONFIG_ERR_INVALID: { status: 500, expose: false, message: 'Invalid startup configuration "%s":\n%s' },
  CONFIG_ERR_DOCUMENT: { status: 500, expose: false, message: 'Invalid startup document:\n  %s' },
});

/** A code of the host */
export type ErrorCode = keyof typeof hostErrors;

/**
 * A plugin's own error codes, as typed factories; put the set in the plugin's `errors` so that the host can refuse a
 * code another plugin registers too. Since plugin API 1.2.
 *
 * @example
 * ```ts
 * export const errors = defineErrors({
 *   SCHEDULE_ERR_IP_NOT_FOUND: { status: 404, expose: true, message: 'IP "%s" not found' },
 * });
 * throw errors.SCHEDULE_ERR_IP_NOT_FOUND(ip); // 404 {"error": "IP \"192.0.2.1\" not found"}
 * ```
 */
export function defineErrors<const T extends Record<string, ErrorSpec>>(specs: T): ErrorSet<T> {
  for (const [code, spec] of Object.entries(specs)) {
    const problem = isHostCode(code) ? 'the host has a code of that name' : specProblem(code, spec);
    if (problem) throw hostErrors.PLUGIN_ERR_ERROR_CODE(code, problem);
  }
  return errorSet(specs);
}
