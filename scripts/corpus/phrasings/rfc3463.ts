import { ENHANCED_STATUS_TABLE, type EnhancedStatusDetail } from '../../../generated/data/bounce-classifier.ts';
import { phrasings } from '../situation.ts';

// The enhanced status codes' own descriptions (the spec's `EnhancedStatusDetail` table: RFC 3463, with the codes
// RFC 4954, 5248, 7372, 7505 and 8689 added), as MTAs print them when they have no text of their own: in reply lines ("550 5.2.1 Mailbox disabled, not
// accepting messages"), in DSN status comments ("Status: 5.1.1 (bad destination mailbox address)"), and in the
// "code - description" lines of bounce notices, webmail and gateways. Many products (Exchange transport rules,
// Java mail servers, Halon, Sophos, appliance firmware) fall back to these words, so the model should read them
// as their code does. The table leaves out codes whose description names no cause a mail operator could act on
// (X.0.0, X.1.0, X.2.0, X.4.0, X.3.5 "system incorrectly configured"), success codes (X.1.5), and those with no
// situation here (X.7.15 priority, X.7.29 ARC). A temporary (4.x.x) and a permanent (5.x.x) rendering are given where both occur in practice.

/**
 * Reply code, status and its standard description (the spec's `EnhancedStatusDetail` table, which
 * `/v1/bounce-email` reads too) in the shapes MTAs print them
 */
function renderings(status: string, replies: readonly string[]): string[] {
  const { description } = ENHANCED_STATUS_TABLE[status.slice(2) as EnhancedStatusDetail];
  const lower = description.toLowerCase();
  const cls = status.charAt(0);
  return replies
    .map((reply) => `${reply} ${status} ${description}`)
    .concat([
      `${status} ${description}`,
      `${status} (${lower})`,
      `${status} - ${description}`,
      `Status: ${status} (${lower})`,
      `#${status} ${description} ##`,
      `${cls === '4' ? 'Delivery delayed' : 'Delivery failed'}: ${status} ${lower}`,
    ]);
}

export default [
  phrasings('recipient-unknown', {
    'rfc3463-x11': renderings('5.1.1', ['550', '553']),
    'rfc3463-x13': renderings('5.1.3', ['501', '553']),
    'rfc3463-x14': renderings('5.1.4', ['550']),
    'rfc3463-x16': renderings('5.1.6', ['550', '551']),
  }),
  phrasings('mailbox-disabled', {
    'rfc3463-x21': renderings('5.2.1', ['550']),
    'rfc3463-x21-temporary': renderings('4.2.1', ['450']),
    'rfc3463-x713': renderings('5.7.13', ['525', '550']),
    'rfc3463-x717': renderings('5.7.17', ['550']),
  }),
  phrasings('mailbox-full', {
    'rfc3463-x22': renderings('5.2.2', ['552', '550']),
    'rfc3463-x22-temporary': renderings('4.2.2', ['452', '450']),
  }),
  phrasings('recipient-domain-not-found', {
    'rfc3463-x12': renderings('5.1.2', ['550', '553']),
    'rfc3463-x110': renderings('5.1.10', ['556']),
    'rfc3463-x44': renderings('5.4.4', ['550', '554']),
  }),
  phrasings('mail-loop', {
    'rfc3463-x46': renderings('5.4.6', ['554']),
  }),
  phrasings('sender-blocked', {
    'rfc3463-x18': renderings('5.1.8', ['553', '550']),
    'rfc3463-x727': renderings('5.7.27', ['550']),
  }),
  phrasings('protocol-syntax', {
    'rfc3463-x17': renderings('5.1.7', ['501', '553']),
    'rfc3463-x51': renderings('5.5.1', ['500', '502']),
    'rfc3463-x52': renderings('5.5.2', ['500']),
    'rfc3463-x54': renderings('5.5.4', ['501', '504']),
    'rfc3463-x55': renderings('5.5.5', ['500']),
    'rfc3463-x67': renderings('5.6.7', ['553', '550']),
  }),
  phrasings('too-many-recipients', {
    'rfc3463-x53': renderings('5.5.3', ['452', '550']),
  }),
  phrasings('other-content', {
    'rfc3463-x23': renderings('5.2.3', ['552']),
    'rfc3463-x34': renderings('5.3.4', ['552', '554']),
    'rfc3463-x61': renderings('5.6.1', ['554']),
    'rfc3463-x62': renderings('5.6.2', ['554']),
    'rfc3463-x63': renderings('5.6.3', ['554']),
    'rfc3463-x65': renderings('5.6.5', ['554']),
    'rfc3463-x716': renderings('5.7.16', ['552']),
  }),
  phrasings('temporary-failure', {
    'rfc3463-x30': renderings('4.3.0', ['451']),
    'rfc3463-x32': renderings('4.3.2', ['453', '421']),
    'rfc3463-x43': renderings('4.4.3', ['451']),
  }),
  phrasings('server-busy', {
    'rfc3463-x31': renderings('4.3.1', ['452', '431']),
    'rfc3463-x45': renderings('4.4.5', ['451', '421']),
  }),
  phrasings('connection-failure', {
    'rfc3463-x41': renderings('4.4.1', []),
    'rfc3463-x42': renderings('4.4.2', ['421']),
  }),
  phrasings('expired-retries', {
    'rfc3463-x47': renderings('4.4.7', []),
    'rfc3463-x47-permanent': renderings('5.4.7', []),
  }),
  phrasings('policy-block', {
    'rfc3463-x71': renderings('5.7.1', ['550', '554']),
    'rfc3463-x70': renderings('5.7.0', ['554']),
    'rfc3463-x72': renderings('5.7.2', ['550']),
    'rfc3463-x714': renderings('5.7.14', ['554']),
  }),
  phrasings('general-rate', {
    'rfc3463-x728': renderings('4.7.28', ['421', '450']),
  }),
  phrasings('auth', {
    'rfc3463-x78': renderings('5.7.8', ['535']),
    'rfc3463-x79': renderings('5.7.9', ['534']),
    'rfc3463-x712': renderings('5.7.12', ['432']),
  }),
  phrasings('tls-required', {
    'rfc3463-x74': renderings('5.7.4', ['554']),
    'rfc3463-x710': renderings('5.7.10', ['523', '530']),
    'rfc3463-x730': renderings('5.7.30', ['550']),
  }),
  phrasings('auth-needs-tls', { 'rfc3463-x711': renderings('5.7.11', ['538']) }),
  phrasings('dkim', {
    'rfc3463-x720': renderings('5.7.20', ['550']),
    'rfc3463-x721': renderings('5.7.21', ['550']),
    'rfc3463-x722': renderings('5.7.22', ['550']),
  }),
  phrasings('spf', {
    'rfc3463-x723': renderings('5.7.23', ['550']),
    'rfc3463-x724': renderings('4.7.24', ['451']),
  }),
  phrasings('ptr', {
    'rfc3463-x725': renderings('5.7.25', ['550']),
  }),
];
