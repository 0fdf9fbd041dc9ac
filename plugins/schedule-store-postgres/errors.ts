/** The PostgreSQL store's error codes (`STORE_ERR_POSTGRES_*`), registered with the host through the plugin's `errors` */
import { defineErrors } from '../../runtime/mod.ts';

export const errors = defineErrors({
  STORE_ERR_POSTGRES_NO_DATABASE: {
    status: 500,
    expose: false,
    message:
      'Plugin "%s" has no database: set "connectionString" in its config or the environment variable "DATABASE_URL"',
  },
  // A failover, restart or partition passes by itself: clients are told to come back rather than given a bare 500
  STORE_ERR_POSTGRES_UNAVAILABLE: {
    status: 503,
    expose: true,
    retryAfter: 5,
    message: 'Schedule database cannot be reached: %s',
  },
  STORE_ERR_POSTGRES_BUSY: {
    status: 503,
    expose: true,
    retryAfter: 1,
    message: 'Schedule database has %d queries waiting for a connection: retry later',
  },
});
