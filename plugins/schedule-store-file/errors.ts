/** The file store's error codes (`STORE_ERR_FILE_*`), registered with the host through the plugin's `errors` */
import { defineErrors } from '../../runtime/mod.ts';

export const errors = defineErrors({
  STORE_ERR_FILE_READ: { status: 500, expose: false, message: 'Cannot read schedule store "%s": %s' },
  // A full disk or a failing device is the operator's to mend, and the write changed nothing: the client comes back
  // later
  STORE_ERR_FILE_WRITE: {
    status: 503,
    expose: true,
    retryAfter: 30,
    message: 'Cannot write the schedule store, nothing was changed: %s',
  },
});
