/** The PostgreSQL store's error codes (`STORE_ERR_POSTGRES_*`), registered with the host through the plugin's `errors` */
import { defineErrors } from '../../runtime/mod.ts';

export const errors = defineErrors({
  STORE_ERR_POSTGRES_NO_DATABASE: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" has no database: set "connectionString" in its config or the environment variable "DATABASE_URL"',
  },
});
