/** The file store's error codes (`STORE_ERR_FILE_*`), registered with the host through the plugin's `errors` */
import { defineErrors } from '../../runtime/mod.ts';

export const errors = defineErrors({
  STORE_ERR_FILE_READ: { status: 500, expose: false, message: 'Cannot read schedule store "%s": %s' },
  STORE_ERR_FILE_WRITE: { status: 500, expose: false, message: 'Cannot write schedule store "%s": %s' },
});
