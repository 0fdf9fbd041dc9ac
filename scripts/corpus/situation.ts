import type { BackoffClass, BnacClass } from '../../generated/data/bounce-classifier.ts';

/**
 * What a situation decides: both labels, and the cause in words (the labelling rule). Null labels: the text is not a
 * bounce, so no class fits it (see NOT_A_BOUNCE).
 */
export interface SituationLabels {
  readonly bnac: BnacClass | null;
  readonly backoff: BackoffClass | null;
  readonly what: string;
}

/**
 * Every real-world cause of a bounce the corpus knows, with the two labels it fixes. This table IS the
 * labelling rulebook of the corpus (corpus/README.md prints it): where a reply can honestly be read two ways,
 * the table names the reading a careful mail operator picks, and the phrasing files follow it.
 */
export const SITUATIONS = {
  // Recipient side
  'recipient-unknown': {
    bnac: 'RECIPIENT_NOT_FOUND',
    backoff: 'RECIPIENT_ERROR',
    what: 'the address does not exist: no such user or mailbox, unknown alias, invalid or unrouteable recipient, not listed in the directory',
  },
  'mailbox-disabled': {
    bnac: 'RECIPIENT_ERROR',
    backoff: 'RECIPIENT_ERROR',
    what: 'the account exists but is disabled, suspended, inactive, expired, locked or frozen',
  },
  'mailbox-full': {
    bnac: 'RECIPIENT_ERROR',
    backoff: 'MAILBOX_FULL',
    what: 'mailbox full, over quota, disk quota exceeded, storage allocation exceeded',
  },
  'recipient-rate': {
    bnac: 'RECIPIENT_ERROR',
    backoff: 'RATE_LIMIT__GENERAL',
    what: 'the recipient receives mail too fast or has exceeded how many messages it may receive',
  },
  'too-many-recipients': {
    bnac: 'RATE_LIMIT',
    backoff: 'RATE_LIMIT__RECIPIENT_LIMIT',
    what: 'too many recipients in one message or session',
  },
  'recipient-domain-not-found': {
    bnac: 'MX_ERROR',
    backoff: 'INFRASTRUCTURE_ERROR',
    what: 'the recipient domain does not resolve: no MX or A record, NXDOMAIN, host or domain not found, DNS lookup failure',
  },
  'relay-denied': {
    bnac: 'MX_ERROR',
    backoff: 'RECIPIENT_ERROR',
    what: 'the receiver does not handle the recipient domain: relaying denied, not in rcpthosts, open relay not allowed',
  },
  'mail-loop': {
    bnac: 'MX_ERROR',
    backoff: 'INFRASTRUCTURE_ERROR',
    what: 'mail loop: too many hops, loop detected, aliasing or forwarding loop',
  },
  // Sending side and connections
  'connection-failure': {
    bnac: 'TEMPORARY_ERROR',
    backoff: 'CONNECTION_FAILURE',
    what: 'the receiving host could not be reached or dropped the session: connection refused, timed out, no route, lost connection, host not responding',
  },
  'expired-retries': {
    bnac: 'TEMPORARY_ERROR',
    backoff: 'CONNECTION_FAILURE',
    what: 'delivery given up after retries: message expired, too long in the queue, maximum delivery attempts, delayed for days',
  },
  'server-busy': {
    bnac: 'TEMPORARY_ERROR',
    backoff: 'RATE_LIMIT__SERVER_BUSY',
    what: 'the receiver is busy or short of resources: insufficient system resources, load too high, server busy',
  },
  'temporary-failure': {
    bnac: 'TEMPORARY_ERROR',
    backoff: 'TEMPORARY_SYSTEM_FAILURE',
    what: 'a temporary local error at the receiver: service unavailable, internal or local error, queue or database error, try again later with no cause',
  },
  'receiver-misconfigured': {
    bnac: 'TEMPORARY_ERROR',
    backoff: 'INFRASTRUCTURE_ERROR',
    what:
      "the receiving system's own setup is broken: server or local configuration error, an " +
      'expired or invalid licence of the mail or filtering software, a required component ' +
      '(scanner, directory, mailbox server) not configured; nothing the sender does fixes it',
  },
  greylisting: {
    bnac: 'GRAYLISTING',
    backoff: 'GRAYLISTING',
    what: 'greylisting named: greylisted, grey list, postgrey, try again in N seconds because greylisted',
  },
  // Volume and reputation
  'ip-rate-volume': {
    bnac: 'RATE_LIMIT',
    backoff: 'RATE_LIMIT__IP_RATE_LIMIT',
    what: 'too many messages from the sending IP, on volume alone (no reputation or complaint wording)',
  },
  'domain-rate-volume': {
    bnac: 'RATE_LIMIT',
    backoff: 'RATE_LIMIT__DOMAIN_RATE_LIMIT',
    what: 'too many messages from the sender domain, on volume alone',
  },
  'general-rate': {
    bnac: 'RATE_LIMIT',
    backoff: 'RATE_LIMIT__GENERAL',
    what: 'a rate limit that names no key: rate limit exceeded, slow down, too many messages, sending frequency limited',
  },
  concurrency: {
    bnac: 'RATE_LIMIT',
    backoff: 'CONCURRENCY_LIMIT',
    what: 'too many connections or sessions, concurrent connection limit',
  },
  'url-domain-rate': {
    bnac: 'MESSAGE_CONTENT',
    backoff: 'RATE_LIMIT__URL_DOMAIN',
    what: 'too many messages carrying one URL or link domain',
  },
  'ip-reputation-temporary': {
    bnac: 'IP_REPUTATION',
    backoff: 'RATE_LIMIT__IP_RATE_LIMIT',
    what: 'the sending IP deferred (4xx) for its reputation, complaints or unsolicited mail',
  },
  'ip-reputation-permanent': {
    bnac: 'IP_REPUTATION',
    backoff: 'INFRASTRUCTURE_BLOCK',
    what: 'the sending IP rejected (5xx) or permanently deferred for poor reputation, no list named',
  },
  'domain-reputation-temporary': {
    bnac: 'DOMAIN_REPUTATION',
    backoff: 'RATE_LIMIT__DOMAIN_RATE_LIMIT',
    what: 'the sender domain deferred (4xx) for its reputation',
  },
  'domain-reputation-permanent': {
    bnac: 'DOMAIN_REPUTATION',
    backoff: 'SENDER_REPUTATION__DOMAIN',
    what: 'the sender domain rejected (5xx) for its reputation, no list named',
  },
  // Blocks
  'dnsbl-ip': {
    bnac: 'BLOCK_LIST',
    backoff: 'INFRASTRUCTURE_BLOCK',
    what:
      'the sending IP or host is on a named DNSBL/RBL or reputation list (Spamhaus, ' +
      'SpamCop, SORBS, Barracuda BRBL, Cloudmark CSI, Invaluement, Mailspike, PSBL, ' +
      'UCEPROTECT, hostkarma, a named dnsbl zone, "found on DNSBLs")',
  },
  'dnsbl-domain': {
    bnac: 'BLOCK_LIST',
    backoff: 'SENDER_REPUTATION__DOMAIN',
    what: 'the sender, MAIL FROM or HELO domain is on a named list (Spamhaus DBL, URIBL, SURBL)',
  },
  'uribl-content': {
    bnac: 'BLOCK_LIST',
    backoff: 'CONTENT_REJECTED_SPAM',
    what: 'a URL or domain in the message body is on a named list',
  },
  'own-ip-block': {
    bnac: 'BLOCKED',
    backoff: 'INFRASTRUCTURE_BLOCK',
    what: "the receiver's own block of the sending IP, no third-party list named (Microsoft S3150, banned sender, our block list, not allowed to connect)",
  },
  'policy-block': {
    bnac: 'BLOCKED',
    backoff: 'GENERIC_BLOCK',
    what: 'rejected by local policy, access denied, administrative prohibition, blocked, without a reason that names another class',
  },
  'sender-blocked': {
    bnac: 'BLOCKED',
    backoff: 'SENDER_REPUTATION__SENDER_ADDRESS',
    what: 'the sender address is refused: blocked by the recipient, blocked senders list, unknown sender, sender domain does not exist, invalid sender',
  },
  'sender-domain-blocked': {
    bnac: 'BLOCKED',
    backoff: 'SENDER_REPUTATION__DOMAIN',
    what:
      "the receiver's own refusal of the sender domain, no third-party list named: a " +
      'banned or blocked sending domain, mail from the domain not accepted, a ' +
      'sending service that suspended, paused or has not verified the domain',
  },
  // Content
  'spam-content': {
    bnac: 'MESSAGE_CONTENT',
    backoff: 'CONTENT_REJECTED_SPAM',
    what: 'the content is judged spam or suspicious, spam filter, content filter, spam score',
  },
  'other-content': {
    bnac: 'MESSAGE_CONTENT',
    backoff: 'CONTENT_REJECTED_OTHER',
    what: 'size limit, banned attachment or file type, header or format policy (missing From or Message-ID, not RFC 5322 compliant headers)',
  },
  virus: { bnac: 'VIRUS', backoff: 'CONTENT_REJECTED_VIRUS', what: 'a virus or malware was found' },
  // Authentication and infrastructure
  dkim: { bnac: 'DKIM', backoff: 'POLICY_VIOLATION_SPF_DMARC__DKIM_FAIL', what: 'DKIM missing, invalid or failing' },
  spf: {
    bnac: 'SPF',
    backoff: 'POLICY_VIOLATION_SPF_DMARC__SPF_OR_DMARC_FAIL',
    what: 'SPF failing: the sending IP is not permitted by the domain',
  },
  dmarc: {
    bnac: 'DMARC',
    backoff: 'POLICY_VIOLATION_SPF_DMARC__SPF_OR_DMARC_FAIL',
    what: 'DMARC policy reject or failure, no DMARC alignment, unauthenticated per DMARC',
  },
  ptr: {
    bnac: 'DNS_PTR',
    backoff: 'INFRASTRUCTURE_BLOCK',
    what: 'missing or mismatching PTR record, no reverse DNS, generic rDNS',
  },
  helo: { bnac: 'PROTOCOL_ERROR', backoff: 'INFRASTRUCTURE_ERROR', what: 'invalid or non-FQDN HELO/EHLO name' },
  auth: {
    bnac: 'PROTOCOL_ERROR',
    backoff: 'AUTHENTICATION_ERROR',
    what: 'SMTP AUTH required or failed, client not authenticated',
  },
  'tls-required': {
    bnac: 'TLS',
    backoff: 'INFRASTRUCTURE_ERROR',
    what: 'TLS required or not offered, STARTTLS required, TLS version or certificate policy not met',
  },
  // RFC 4954's 538: the login, not the message, needs the encryption (gathered rows label it so)
  'auth-needs-tls': {
    bnac: 'TLS',
    backoff: 'AUTHENTICATION_ERROR',
    what: 'the authentication mechanism needs an encrypted session: encryption required for the requested authentication mechanism, AUTH not available without TLS',
  },
  'tls-handshake': {
    bnac: 'TLS',
    backoff: 'CONNECTION_FAILURE',
    what: 'the TLS handshake or negotiation failed, no certificate named (as the sending side reports it)',
  },
  // The dev set's rules read certificate problems as INFRASTRUCTURE_ERROR and handshake failures as CONNECTION_FAILURE
  'tls-certificate': {
    bnac: 'TLS',
    backoff: 'INFRASTRUCTURE_ERROR',
    what: "the peer's certificate did not verify or match: expired, untrusted, wrong name, no DANE TLSA record matching it",
  },
  'protocol-syntax': {
    bnac: 'PROTOCOL_ERROR',
    backoff: 'PROTOCOL_ERROR',
    what: 'command syntax, unrecognised command, bad sequence, bare LF, invalid address syntax in a command',
  },
  // Operators feed the classifier whatever came back, and not all of it is a bounce. The models learn this situation
  // so that such text gets no class with any confidence: its probability is the share no class receives
  'not-a-bounce': {
    bnac: null,
    backoff: null,
    what: 'not a failure: an accepted delivery (a 2xx reply, a success notice), an auto-reply, a read receipt, an acknowledgement or a list notice',
  },
} as const satisfies Record<string, SituationLabels>;

/** The situation of text that is not a bounce: it maps to no class. */
export const NOT_A_BOUNCE = 'not-a-bounce' satisfies SituationName;

/** One situation name. */
export type SituationName = keyof typeof SITUATIONS;

/** Replies of one situation as families word them; `{slot}` marks variable parts, `{a|b|c}` equivalent phrasings. */
export interface Phrasings {
  readonly situation: SituationName;
  readonly templates: Readonly<Record<string, readonly string[]>>;
}

/**
 * Phrasings of a situation, keyed by the receiving product or provider that words them (a family name in
 * kebab case, such as `postfix` or `t-online`). Families are free text: the held-out evaluation groups by
 * phrasing, not by family.
 */
export function phrasings(situation: SituationName, templates: Readonly<Record<string, readonly string[]>>): Phrasings {
  if (!(situation in SITUATIONS)) throw new Error(`unknown situation "${situation}"`);
  return { situation, templates };
}
