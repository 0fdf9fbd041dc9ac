import { phrasings } from '../situation.ts';

// The enhanced status codes' own descriptions (RFC 3463, with the codes RFC 4954, 5248, 7372, 7505 and 8689 added),
// as MTAs print them when they have no text of their own: in reply lines ("550 5.2.1 Mailbox disabled, not
// accepting messages"), in DSN status comments ("Status: 5.1.1 (bad destination mailbox address)"), and in the
// "code - description" lines of bounce notices, webmail and gateways. Many products (Exchange transport rules,
// Java mail servers, Halon, Sophos, appliance firmware) fall back to these words, so the model should read them
// as their code does.
//
// Left out: codes whose description names no cause a mail operator could act on (X.0.0, X.1.0, X.2.0, X.4.0,
// X.3.5 "system incorrectly configured"), success codes (X.1.5), and those with no situation here (X.7.15 priority,
// X.7.29 ARC). A temporary (4.x.x) and a permanent (5.x.x) rendering are given where both occur in practice.

/** Reply code, status and description in the shapes MTAs print them; `{s}` stands for the status digits. */
function renderings(status: string, description: string, replies: readonly string[]): string[] {
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
    'rfc3463-x11': renderings('5.1.1', 'Bad destination mailbox address', ['550', '553']),
    'rfc3463-x13': renderings('5.1.3', 'Bad destination mailbox address syntax', ['501', '553']),
    'rfc3463-x14': renderings('5.1.4', 'Destination mailbox address ambiguous', ['550']),
    'rfc3463-x16': renderings('5.1.6', 'Destination mailbox has moved, no forwarding address', ['550', '551']),
  }),
  phrasings('mailbox-disabled', {
    'rfc3463-x21': renderings('5.2.1', 'Mailbox disabled, not accepting messages', ['550']),
    'rfc3463-x21-temporary': renderings('4.2.1', 'Mailbox disabled, not accepting messages', ['450']),
    'rfc3463-x713': renderings('5.7.13', 'User account disabled', ['525', '550']),
    'rfc3463-x717': renderings('5.7.17', 'Mailbox owner has changed', ['550']),
  }),
  phrasings('mailbox-full', {
    'rfc3463-x22': renderings('5.2.2', 'Mailbox full', ['552', '550']),
    'rfc3463-x22-temporary': renderings('4.2.2', 'Mailbox full', ['452', '450']),
  }),
  phrasings('recipient-domain-not-found', {
    'rfc3463-x12': renderings('5.1.2', 'Bad destination system address', ['550', '553']),
    'rfc3463-x110': renderings('5.1.10', 'Recipient address has null MX', ['556']),
    'rfc3463-x44': renderings('5.4.4', 'Unable to route', ['550', '554']),
  }),
  phrasings('mail-loop', {
    'rfc3463-x46': renderings('5.4.6', 'Routing loop detected', ['554']),
  }),
  phrasings('sender-blocked', {
    'rfc3463-x18': renderings('5.1.8', "Bad sender's system address", ['553', '550']),
    'rfc3463-x727': renderings('5.7.27', 'Sender address has null MX', ['550']),
  }),
  phrasings('protocol-syntax', {
    'rfc3463-x17': renderings('5.1.7', "Bad sender's mailbox address syntax", ['501', '553']),
    'rfc3463-x51': renderings('5.5.1', 'Invalid command', ['500', '502']),
    'rfc3463-x52': renderings('5.5.2', 'Syntax error', ['500']),
    'rfc3463-x54': renderings('5.5.4', 'Invalid command arguments', ['501', '504']),
    'rfc3463-x55': renderings('5.5.5', 'Wrong protocol version', ['500']),
    'rfc3463-x67': renderings('5.6.7', 'Non-ASCII addresses not permitted for that sender/recipient', ['553', '550']),
  }),
  phrasings('too-many-recipients', {
    'rfc3463-x53': renderings('5.5.3', 'Too many recipients', ['452', '550']),
  }),
  phrasings('other-content', {
    'rfc3463-x23': renderings('5.2.3', 'Message length exceeds administrative limit', ['552']),
    'rfc3463-x34': renderings('5.3.4', 'Message too big for system', ['552', '554']),
    'rfc3463-x61': renderings('5.6.1', 'Media not supported', ['554']),
    'rfc3463-x62': renderings('5.6.2', 'Conversion required and prohibited', ['554']),
    'rfc3463-x63': renderings('5.6.3', 'Conversion required but not supported', ['554']),
    'rfc3463-x65': renderings('5.6.5', 'Conversion failed', ['554']),
    'rfc3463-x716': renderings('5.7.16', 'Message is too big for the specified priority', ['552']),
  }),
  phrasings('temporary-failure', {
    'rfc3463-x30': renderings('4.3.0', 'Other or undefined mail system status', ['451']),
    'rfc3463-x32': renderings('4.3.2', 'System not accepting network messages', ['453', '421']),
    'rfc3463-x43': renderings('4.4.3', 'Directory server failure', ['451']),
  }),
  phrasings('server-busy', {
    'rfc3463-x31': renderings('4.3.1', 'Mail system full', ['452', '431']),
    'rfc3463-x45': renderings('4.4.5', 'Mail system congestion', ['451', '421']),
  }),
  phrasings('connection-failure', {
    'rfc3463-x41': renderings('4.4.1', 'No answer from host', []),
    'rfc3463-x42': renderings('4.4.2', 'Bad connection', ['421']),
  }),
  phrasings('expired-retries', {
    'rfc3463-x47': renderings('4.4.7', 'Delivery time expired', []),
    'rfc3463-x47-permanent': renderings('5.4.7', 'Delivery time expired', []),
  }),
  phrasings('policy-block', {
    'rfc3463-x71': renderings('5.7.1', 'Delivery not authorized, message refused', ['550', '554']),
    'rfc3463-x70': renderings('5.7.0', 'Other or undefined security status', ['554']),
    'rfc3463-x72': renderings('5.7.2', 'Mailing list expansion prohibited', ['550']),
    'rfc3463-x714': renderings('5.7.14', 'Trust relationship required', ['554']),
  }),
  phrasings('general-rate', {
    'rfc3463-x728': renderings('4.7.28', 'Mail flood detected', ['421', '450']),
  }),
  phrasings('auth', {
    'rfc3463-x78': renderings('5.7.8', 'Authentication credentials invalid', ['535']),
    'rfc3463-x79': renderings('5.7.9', 'Authentication mechanism is too weak', ['534']),
    'rfc3463-x712': renderings('5.7.12', 'A password transition is needed', ['432']),
  }),
  phrasings('tls-required', {
    'rfc3463-x74': renderings('5.7.4', 'Security features not supported', ['554']),
    'rfc3463-x710': renderings('5.7.10', 'Encryption needed', ['523', '530']),
    'rfc3463-x711': renderings('5.7.11', 'Encryption required for requested authentication mechanism', ['538']),
    'rfc3463-x730': renderings('5.7.30', 'REQUIRETLS support required', ['550']),
  }),
  phrasings('dkim', {
    'rfc3463-x720': renderings('5.7.20', 'No passing DKIM signature found', ['550']),
    'rfc3463-x721': renderings('5.7.21', 'No acceptable DKIM signature found', ['550']),
    'rfc3463-x722': renderings('5.7.22', 'No valid author-matched DKIM signature found', ['550']),
  }),
  phrasings('spf', {
    'rfc3463-x723': renderings('5.7.23', 'SPF validation failed', ['550']),
    'rfc3463-x724': renderings('4.7.24', 'SPF validation error', ['451']),
  }),
  phrasings('ptr', {
    'rfc3463-x725': renderings('5.7.25', 'Reverse DNS validation failed', ['550']),
  }),
];
