import { defineErrors, definePlugin, Type } from 'capstan';

const errors = defineErrors({
  HELLO_ERR_NOT_FOUND: { status: 404, expose: true, message: 'IP "%s" has no greeting' },
});

export default definePlugin({
  id: 'hello', // default instance id; plugins[].id names the instance
  kind: 'api', // 'api' (serves routes), 'classifier' or 'store'
  apiVersion: '^1.2.0', // plugin-API versions this plugin supports (host is 1.9.0)
  api: 'ip-schedule', // kind 'api' only: the OpenAPI document whose operations it serves
  config: Type.Object({ greeting: Type.String({ default: 'hi' }) }, { additionalProperties: false }),
  capabilities: {
    env: ['HELLO_TOKEN'], // environment variables it reads: ctx.env holds only these
    paths: ['./var/hello'], // files or folders it uses (relative to the startup document)
    pool: { worker: new URL('./worker.ts', import.meta.url).href, scriptPool: 'classify' }, // optional; the pool must be in threads.scripts
    services: { store: { kind: 'store', configKey: 'store', default: 'schedule-store-file' } },
  },
  errors, // its own error codes (since 1.2)
  commands: {
    // `capstan hello [NAME]` (since 1.2)
    hello: {
      summary: 'Greet someone',
      usage: 'hello [NAME]',
      run: async (args, io) => (io.stdout.write(`hi ${args[0] ?? ''}\n`), 0),
    },
  },
  async setup(ctx) {
    ctx.log.info('ready', { greeting: ctx.config.greeting });
    return {
      handlers: {
        getStatus: async (req) => {
          if (req.params.ip === '192.0.2.1') throw errors.HELLO_ERR_NOT_FOUND(req.params.ip);
          return { body: { ok: true } };
        },
      },
      sockets: { policyFeed: (ws, req) => ws.send('{"hello":1}') }, // since 1.2: WebSocket operations
      auth: { header: 'x-api-key', keys: ['secret', { name: 'ops', key: 's3' }], query: 'api_key' }, // optional; named keys since 1.4
      service: undefined, // kind classifier/store: the object other plugins use
      ready: async () => {}, // since 1.2: behind GET /readyz, throws what fails
      pages: [{ prefix: '/hello/', dir: '/abs/folder' }], // since 1.2: static files, no key
      close: async () => {},
    };
  },
});
