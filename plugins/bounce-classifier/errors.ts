/** The bounce-classifier plugin's error codes (`BOUNCE_ERR_*`), registered with the host through the plugin's `errors` */
import { defineErrors } from '../../runtime/mod.ts';

export const errors = defineErrors({
  BOUNCE_ERR_BATCH_SIZE: { status: 413, expose: true, message: 'Batch holds "%d" messages: at most "%d" are accepted' },
  BOUNCE_ERR_RESULT_COUNT: { status: 500, expose: false, message: 'Classifier returned "%s" results for "%d" texts' },
  BOUNCE_ERR_RESULT: { status: 500, expose: false, message: 'Classifier returned an invalid "%s" result "%s"' },
  BOUNCE_ERR_NO_CLASSIFIER: { status: 500, expose: false, message: 'Plugin "%s" does not provide a classifier service' },
  BOUNCE_ERR_ENV: { status: 500, expose: false, message: 'Invalid environment variable "%s" value "%s": %s' },
});
