// The two closed label sets of docs/spec bounce-classifier-api.md, in the
// spec's order. Model files store their label list; loaders check it
// against these so a stale model cannot return a class the API does not know.

/** BNAC (bounce next action classification) classes. */
export const BNAC_CLASSES = [
  'BLOCK_LIST',
  'BLOCKED',
  'DKIM',
  'DMARC',
  'DNS_PTR',
  'DOMAIN_REPUTATION',
  'GRAYLISTING',
  'IP_REPUTATION',
  'MESSAGE_CONTENT',
  'MX_ERROR',
  'PROTOCOL_ERROR',
  'RATE_LIMIT',
  'RECIPIENT_ERROR',
  'RECIPIENT_NOT_FOUND',
  'SPF',
  'TEMPORARY_ERROR',
  'TLS',
  'VIRUS',
] as const;

/** One BNAC class name. */
export type BnacClass = (typeof BNAC_CLASSES)[number];

/** Queue-policy field a backoff action applies to. */
export type BackoffField = 'localip' | 'remoteip' | 'tenantid' | 'jobid' | 'grouping';

/** Action a sending MTA takes for a backoff class. */
export type BackoffAction = 'suspend' | 'rate' | 'concurrency';

/** What the backoff API returns besides the class: the fields and actions of the spec table. */
export interface BackoffEntry {
  readonly fields: readonly BackoffField[];
  readonly actions: readonly BackoffAction[];
}

const none: BackoffEntry = { fields: [], actions: [] };

/** Backoff class → fields and actions, exactly as the spec table lists them. */
export const BACKOFF_TABLE = {
  AUTHENTICATION_ERROR: none,
  CONCURRENCY_LIMIT: { fields: ['localip', 'grouping'], actions: ['concurrency'] },
  CONNECTION_FAILURE: none,
  CONTENT_REJECTED_OTHER: none,
  CONTENT_REJECTED_SPAM: { fields: ['tenantid', 'jobid', 'grouping'], actions: ['suspend'] },
  CONTENT_REJECTED_VIRUS: { fields: ['tenantid', 'jobid', 'grouping'], actions: ['suspend'] },
  GENERIC_BLOCK: none,
  GRAYLISTING: none,
  INFRASTRUCTURE_BLOCK: { fields: ['jobid', 'grouping'], actions: ['suspend'] },
  INFRASTRUCTURE_ERROR: { fields: ['jobid', 'grouping'], actions: ['suspend'] },
  MAILBOX_FULL: none,
  POLICY_VIOLATION_SPF_DMARC__DKIM_FAIL: { fields: ['tenantid', 'jobid', 'grouping'], actions: ['suspend'] },
  POLICY_VIOLATION_SPF_DMARC__SPF_OR_DMARC_FAIL: { fields: ['localip', 'tenantid', 'grouping'], actions: ['suspend'] },
  PROTOCOL_ERROR: none,
  RATE_LIMIT__DOMAIN_RATE_LIMIT: { fields: ['tenantid', 'grouping'], actions: ['rate'] },
  RATE_LIMIT__GENERAL: { fields: ['localip', 'grouping'], actions: ['rate'] },
  RATE_LIMIT__IP_RATE_LIMIT: { fields: ['localip', 'grouping'], actions: ['rate'] },
  RATE_LIMIT__RECIPIENT_LIMIT: none,
  RATE_LIMIT__SERVER_BUSY: { fields: ['localip', 'remoteip'], actions: ['concurrency', 'rate'] },
  RATE_LIMIT__URL_DOMAIN: { fields: ['tenantid', 'jobid', 'grouping'], actions: ['rate'] },
  RECIPIENT_ERROR: none,
  SENDER_REPUTATION__DOMAIN: { fields: ['tenantid', 'grouping'], actions: ['suspend'] },
  SENDER_REPUTATION__SENDER_ADDRESS: { fields: ['tenantid', 'grouping'], actions: ['suspend'] },
  TEMPORARY_SYSTEM_FAILURE: none,
} as const satisfies Record<string, BackoffEntry>;

/** One backoff class name. */
export type BackoffClass = keyof typeof BACKOFF_TABLE;

/** Backoff classes in the spec's order. */
export const BACKOFF_CLASSES = Object.keys(BACKOFF_TABLE) as readonly BackoffClass[];
