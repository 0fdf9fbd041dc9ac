/** The ip-schedule plugin's error codes (`SCHEDULE_ERR_*`), registered with the host through the plugin's `errors` */
import { defineErrors } from '../../runtime/mod.ts';

export const errors = defineErrors({
  SCHEDULE_ERR_IP_INVALID: { status: 400, expose: true, message: 'Invalid IP address "%s"' },
  SCHEDULE_ERR_IP_EXISTS: { status: 400, expose: true, message: 'IP already exists' },
  SCHEDULE_ERR_GROUPING_INVALID: {
    status: 400,
    expose: true,
    message: 'Invalid grouping "%s": must be "&" then 1 to 63 letters, digits, ".", "_" or "-"',
  },
  SCHEDULE_ERR_GROUPING_DUPLICATE: { status: 400, expose: true, message: 'Duplicate grouping "%s" in "groupings"' },
  SCHEDULE_ERR_TOO_MANY_DAYS: {
    status: 400,
    expose: true,
    message:
      'Invalid "groupings": "%d" schedule days in total, more than the %d one IP may hold: shorten the schedules or spread the groupings over more IPs',
  },
  SCHEDULE_ERR_FIELD_MISSING: { status: 400, expose: true, message: 'Missing "%s": required for mode "%s"' },
  SCHEDULE_ERR_FIELD_UNEXPECTED: { status: 400, expose: true, message: 'Unexpected "%s": not allowed for mode "%s"' },
  SCHEDULE_ERR_END_BEFORE_START: { status: 400, expose: true, message: 'Invalid "%s": "%s" is before start date "%s"' },
  SCHEDULE_ERR_STEP_BACK_BELOW_HOLD: {
    status: 400,
    expose: true,
    message: 'Invalid "%s": stepBack "%s" is below hold "%s"',
  },
  SCHEDULE_ERR_TOO_LONG: { status: 400, expose: true, message: 'Invalid "%s": the schedule is longer than %d days' },
  SCHEDULE_ERR_AFTER_9999: {
    status: 400,
    expose: true,
    message: 'Invalid "%s": its last day falls after "9999-12-31"',
  },
  SCHEDULE_ERR_DAY_DUPLICATE: { status: 400, expose: true, message: 'Duplicate day "%d" in "%s"' },
  SCHEDULE_ERR_DAY_MISSING: {
    status: 400,
    expose: true,
    message: 'Missing day "%d" in "%s": days must run from 1 to the last day, each once',
  },
  SCHEDULE_ERR_DATE_INVALID: { status: 400, expose: true, message: 'Invalid date "%s" in "%s": not a calendar date' },
  SCHEDULE_ERR_IP_NOT_FOUND: { status: 404, expose: true, message: 'IP "%s" not found' },
  SCHEDULE_ERR_GROUPING_NOT_FOUND: { status: 404, expose: true, message: 'Grouping "%s" of IP "%s" not found' },
  SCHEDULE_ERR_NO_CLASSIFIER: {
    status: 501,
    expose: true,
    message:
      'Backoff events need a classifier: add the "bounce-classifier" plugin to "plugins", or name one in the ip-schedule config "classifier"',
  },
  SCHEDULE_ERR_NO_POLICY_STORE: {
    status: 501,
    expose: true,
    message:
      'The schedule store keeps no applied policies (no "putPolicy"): use one that does, such as "schedule-store-file" or "schedule-store-postgres"',
  },
  SCHEDULE_ERR_NO_AUDIT_STORE: {
    status: 501,
    expose: true,
    message:
      'The schedule store keeps no audit trail (no "queryAudit"): use one that does, such as "schedule-store-file" or "schedule-store-postgres"',
  },
  SCHEDULE_ERR_AUDIT_CURSOR: {
    status: 400,
    expose: true,
    message: 'Invalid "cursor" "%s": pass the "next" of the previous page',
  },
  SCHEDULE_ERR_CLASSIFIER_SERVICE: {
    status: 500,
    expose: false,
    message: 'Plugin "%s" does not classify replies for other plugins',
  },
  SCHEDULE_ERR_BACKOFF_CLASS: {
    status: 500,
    expose: false,
    message: 'Unknown backoff class "%s" in "backoff.policies": use one of "%s"',
  },
  SCHEDULE_ERR_BACKOFF_NO_FIELDS: {
    status: 500,
    expose: false,
    message: 'Backoff class "%s" has no fields to scope a policy by: it cannot be in "backoff.policies"',
  },
  SCHEDULE_ERR_BACKOFF_TRIGGER: {
    status: 500,
    expose: false,
    message: 'Unknown class group or backoff class "%s" in "backoff.triggers": use one of "%s"',
  },
  SCHEDULE_ERR_EVENT_MESSAGE: {
    status: 400,
    expose: true,
    message: 'Missing "message" in event "%d": only a delivered event ("outcome": "delivered") may leave it out',
  },
  SCHEDULE_ERR_EVENT_TIME: {
    status: 400,
    expose: true,
    message: 'Invalid "time" "%s" in event "%d": use RFC 3339 ("2026-11-23T10:14:58Z") or seconds since the epoch',
  },
  SCHEDULE_ERR_POLICY_NOT_FOUND: { status: 404, expose: true, message: 'Policy "%s" not found' },
  SCHEDULE_ERR_POLICY_WARMUP: {
    status: 409,
    expose: true,
    message:
      'Policy "%s" follows its warm-up schedule: change the schedule of IP "%s" through the schedule API (/config/{ip}, /pause, /resume)',
  },
  SCHEDULE_ERR_POLICY_AMEND: { status: 400, expose: true, message: 'Cannot amend "%s": %s' },
  SCHEDULE_ERR_TEST_CLOCK: {
    status: 500,
    expose: false,
    message: 'Invalid "CAPSTAN_TEST_CLOCK" "%s": an RFC 3339 time, and never with "NODE_ENV" "production"',
  },
  SCHEDULE_ERR_BULK_TARGETS: { status: 400, expose: true, message: 'Invalid bulk "%s": %s' },
  SCHEDULE_ERR_BULK_TOO_MANY: {
    status: 400,
    expose: true,
    message: 'Too many groupings: "%d" match, at most %d may change at once; narrow the filter',
  },
  SCHEDULE_ERR_CSV: { status: 400, expose: true, message: 'Invalid CSV: %s' },
  SCHEDULE_ERR_CSV_LINES: {
    status: 400,
    expose: true,
    message:
      'Invalid CSV: "%d" lines break the rules, nothing was written: %s (a dry run, "dry_run=true", lists them all)',
  },
  SCHEDULE_ERR_BACKOFF_NO_ACTION: {
    status: 500,
    expose: false,
    message: 'Backoff class "%s" applies nothing: give it "rate", "concurrency" or "suspend": true',
  },
});
