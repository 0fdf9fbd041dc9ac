import { hostErrors } from '../core/host-errors.ts';

/**
 * The startup document `capstan serve` uses without `--config`: one server on 127.0.0.1:8080 with both built-in
 * API plugins and the `ui` pages at `/ui/`, data under `./var`. For deployments configured only by environment:
 * `SERVICE_HOST` and `SERVICE_PORT` move the listener; `SERVICE_TLS_CERT` and `SERVICE_TLS_KEY` (PEM paths) make the
 * server https (default port 8443).
 */
export function defaultStartupDocument(env: Record<string, string | undefined> = process.env): Record<string, unknown> {
  const tls = env.SERVICE_TLS_CERT !== undefined || env.SERVICE_TLS_KEY !== undefined;
  if (tls && (!env.SERVICE_TLS_CERT || !env.SERVICE_TLS_KEY)) {
    throw new Error('Set both "SERVICE_TLS_CERT" and "SERVICE_TLS_KEY" to serve https');
  }
  const port = env.SERVICE_PORT ? Number(env.SERVICE_PORT) : tls ? 8443 : 8080;
  // Checked here so that the message names the variable, not the document's path it fills
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw hostErrors.HOST_ERR_SETTING_PORT('SERVICE_PORT', env.SERVICE_PORT!);
  return {
    version: '6.10',
    servers: [
      { id: 'capstan', type: tls ? 'https' : 'http', listeners: [{ address: env.SERVICE_HOST || '127.0.0.1', port }] },
    ],
    ...(tls
      ? {
          pki: {
            private: [
              { id: 'capstan', privatekey: { path: env.SERVICE_TLS_KEY }, certificate: { path: env.SERVICE_TLS_CERT } },
            ],
          },
        }
      : {}),
    // The file store is listed, not only ip-schedule's default, so that bounce-classifier's optional audit store finds
    // it too: operators' corrections then show in GET /v1/audit beside the schedules' changes
    plugins: [{ id: 'schedule-store-file' }, { id: 'bounce-classifier' }, { id: 'ip-schedule' }, { id: 'ui' }],
    environment: { syslog: { ident: 'capstan' } },
  };
}
