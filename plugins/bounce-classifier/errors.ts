/** The bounce-classifier plugin's error codes (`BOUNCE_ERR_*`), registered with the host through the plugin's `errors` */
import { defineErrors } from '../../runtime/mod.ts';

export const errors = defineErrors({
  BOUNCE_ERR_BATCH_SIZE: { status: 413, expose: true, message: 'Batch holds "%d" messages: at most "%d" are accepted' },
  BOUNCE_ERR_RESULT_COUNT: { status: 500, expose: false, message: 'Classifier returned "%s" results for "%d" texts' },
  BOUNCE_ERR_RESULT: { status: 500, expose: false, message: 'Classifier returned an invalid "%s" result "%s"' },
  BOUNCE_ERR_NO_CLASSIFIER: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" does not provide a classifier service',
  },
  BOUNCE_ERR_EMAIL_EMPTY: { status: 400, expose: true, message: 'Email is empty' },
  BOUNCE_ERR_NOT_EMAIL_HEADER: {
    status: 400,
    expose: true,
    message: 'Body is not an email: it does not start with a header line',
  },
  BOUNCE_ERR_NOT_EMAIL_NUL: { status: 400, expose: true, message: 'Body is not an email: its headers hold NUL bytes' },
  BOUNCE_ERR_EMAIL_LIMIT: { status: 413, expose: true, message: 'Email has more "%s" than the limit of "%d"' },
  BOUNCE_ERR_EMAIL_UNREADABLE: { status: 400, expose: true, message: 'Cannot read email: %s' },
  BOUNCE_ERR_CORRECTION_NOT_FOUND: { status: 404, expose: true, message: 'Correction "%s" not found' },
  BOUNCE_ERR_CORRECTIONS_FULL: {
    status: 409,
    expose: true,
    message: 'Corrections are full: "%d" kept, at most "%d": delete some or raise "corrections.maxCount"',
  },
  // A full disk or a database out of reach is the operator's to mend, and the write changed nothing: the client comes
  // back later, and the corrections read before stay in force meanwhile
  BOUNCE_ERR_CORRECTIONS_WRITE: {
    status: 503,
    expose: true,
    retryAfter: 5,
    message: 'Cannot write the corrections, nothing was changed: %s',
  },
  BOUNCE_ERR_CORRECTIONS_READ: { status: 503, expose: true, retryAfter: 5, message: 'Cannot read the corrections: %s' },
  BOUNCE_ERR_ENV: { status: 500, expose: false, message: 'Invalid environment variable "%s" value "%s": %s' },
});
