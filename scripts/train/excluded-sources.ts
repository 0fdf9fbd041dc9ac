/*
 * Sources no gathered reply may come from, as address prefixes (case-insensitive, without the scheme):
 * - those ../shared/reference/data-sources.md reserves for judging the project (every repository named there, and
 *   the issue threads it lists);
 * - the repositories the dev sets' READMEs list, and other repositories of their owners where the texts overlap
 *   (zone-eu's WildDuck quotes the replies zone-mta's comments do; MicrosoftDocs holds the upstream of a dev source
 *   and a reserved one): a reply from another thread of a listed repository is too close to mining a dev source.
 * `npm run real-text` drops such rows, and a test fails while one is in the gathered set or the holdout.
 */

/**
 * Reserved for judging, by repository name under any owner: data-sources.md reserves their forks, ports and copies
 * too, and a fork keeps its name
 */
const RESERVED_NAMES = [
  /sisimai/,
  /^set-of-emails$/,
  /^bouncehammer$/,
  /^kumomta$/,
  /^email-bounce-parser$/,
  /^bounce-classifier$/,
  /^mail-deliverystatus-bounceparser$/,
  /^bounce_email$/,
  /^php-bounce-handler$/,
  // A port of PHP-Bounce-Handler, which the bounce emails' README names among the hidden set's sources
  /^node-bounce-handler$/,
  /^mautic$/,
  /^supportarticles-docs$/,
];

/** Reserved for judging: the issue threads data-sources.md lists */
const RESERVED = [
  'github.com/Jinnrry/PMail/issues/181',
  'github.com/MailScanner/v5/issues/634',
  'github.com/Purelymail/purelymail-issues/issues/394',
  'github.com/docker-mailserver/docker-mailserver/issues/2361',
  'github.com/docusealco/docuseal/issues/524',
  'github.com/freescout-help-desk/freescout/issues/3765',
  'github.com/getconversio/email-deep-validator/issues/20',
  'github.com/hmailserver/hmailserver/issues/491',
  'github.com/justingit/dada-mail/issues/717',
  'github.com/mailcow/mailcow-dockerized/issues/1497',
  'github.com/mailcow/mailcow-dockerized/issues/2639',
  'github.com/maildev/maildev/issues/96',
  'github.com/mailserver2/mailserver/issues/90',
  'github.com/maxking/docker-mailman/issues/303',
  'github.com/mitodl/micromasters/issues/2958',
  'github.com/modoboa/modoboa/issues/2564',
  'github.com/nodemailer/nodemailer/issues/236',
  'github.com/openstreetmap/operations/issues/674',
  'github.com/postalserver/postal/issues/507',
  'github.com/postalserver/postal/issues/576',
  'github.com/postalserver/postal/issues/595',
  'github.com/postalserver/postal/issues/745',
  'github.com/stalwartlabs/stalwart/issues/734',
  'github.com/stalwartlabs/stalwart/issues/1108',
  'github.com/testssl/testssl.sh/issues/2089',
  'github.com/thunderbird/mailstrom/issues/162',
  'github.com/zytzagoo/smtp-validate-email/issues/9',
];

/** The dev sets' sources (repositories, whole), and owners whose other repositories quote the same texts */
const DEV_SOURCES = [
  'github.com/ActiveCampaign/',
  'github.com/zone-eu/',
  'github.com/wRAR/flufl.bounce',
  'github.com/x13-me/OfficeDocs-Exchange',
  'github.com/MicrosoftDocs/',
  'github.com/mailgun/flanker',
  'github.com/3s3s/opentrade',
  'github.com/CDLUC3/ezid',
  'github.com/Mailu/Mailu',
  'github.com/chatmail/relay',
  'github.com/gophish/gophish',
  'github.com/hardware/mailserver',
  // The whole owner: its other repositories (hitobito_pbs and kin) are plugins of the same application
  'github.com/hitobito/',
  'github.com/in2code-de/luxletter',
  'github.com/jcbf/smf-spf',
  'github.com/mail-in-a-box/mailinabox',
  'github.com/mozilla/fxa-auth-server',
  // The monorepo fxa-auth-server moved into: its threads and code are the same project's
  'github.com/mozilla/fxa',
  'github.com/triplea-game/triplea',
  // The bounce emails' sources
  'github.com/dimagi/commcare-hq',
  // The whole owner: MailKit is MimeKit's sibling by the same author, its threads too close to a dev source
  'github.com/jstedfast/',
  'github.com/okfde/froide',
  // Copies the dev set's SMTP Field Manual often enough that its replies were dev near-copies
  'smtp.codes/',
  // Upstreams the bounce emails' README names as copied by hidden-set sources
  'github.com/sendgrid/go-gmime',
  'github.com/LoneStarInternet/mail_manager',
];

const PREFIXES = [...RESERVED, ...DEV_SOURCES].map((p) => p.toLowerCase());

/**
 * Parts of a repository, at any commit, that the bounce emails' README names as copied by hidden-set sources: Exim's
 * test suite mail (the rest of Exim, its source and documentation, is fair game)
 */
const COPIED_PATHS = [/^github\.com\/exim\/exim\/(?:blob|tree|raw)\/[^/]+\/test\//];

/** Why a source address is excluded (the prefix or reserved name it falls under), if it is */
export function excludedSource(source: string): string | undefined {
  const address = source.toLowerCase().replace(/^https?:\/\/(www\.)?/, '');
  const name = /^github\.com\/[^/]+\/([^/#?]+)/.exec(address)?.[1];
  const reserved = name === undefined ? undefined : RESERVED_NAMES.find((n) => n.test(name));
  if (reserved) return `a repository named like ${reserved.source}`;
  const copied = COPIED_PATHS.find((p) => p.test(address));
  if (copied) return `a path like ${copied.source}`;
  // A listed thread must not match a longer number (`issues/90` is not `issues/901`)
  return PREFIXES.find((p) => address.startsWith(p) && (p.endsWith('/') || !/^[\w.-]/.test(address.slice(p.length))));
}
