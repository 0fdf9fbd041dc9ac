/**
 * Mailbox providers: which one an event goes to, from its `remotemx` (the longest MX host suffix of the table, on
 * whole labels) or else its `recipientdomain` (a well-known domain of the table). The table is the spec's
 * (`PROVIDER_TABLE`, spec/openapi/ip-schedule.yaml), with the rows of config `backoff.providers` added or put in place
 * of the built-in ones. An event of no row is named by the registrable domain of its MX host (else of its recipient
 * domain), from the public suffix list: `mx1.example.co.uk` is `example.co.uk`.
 */
import { getDomain } from 'tldts';
import { PROVIDER_TABLE } from '../../../generated/data/ip-schedule.ts';
import type { IpScheduleConfig } from '../../../generated/types/plugins/ip-schedule.ts';

/** Provider ids: lower case, as metrics labels and feed properties take them */
export const PROVIDER_ID = '^[a-z0-9][a-z0-9._-]{0,62}$';

/** Most names remembered: events repeat a few MX hosts and domains, ever-new ones must not grow memory */
const MAX_REMEMBERED = 50_000;

/** Lower case, without the root's trailing dot */
function host(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The provider table, built-in and configured rows, and the lookups over it */
export class Providers {
  /** Every row's id: the closed label set of the metrics */
  readonly ids: ReadonlySet<string>;
  readonly #bySuffix = new Map<string, string>();
  readonly #byDomain = new Map<string, string>();
  readonly #remembered = new Map<string, string>();

  constructor(config: IpScheduleConfig['backoff']['providers'] = {}) {
    const rows: Record<string, { mx?: readonly string[]; domains?: readonly string[] }> = {
      ...PROVIDER_TABLE,
      ...config,
    };
    this.ids = new Set(Object.keys(rows));
    // Configured rows come last: a suffix or domain they name is theirs, even one a built-in row names too
    for (const [id, row] of Object.entries(rows).sort(([a], [b]) => Number(a in config) - Number(b in config))) {
      for (const suffix of row.mx ?? []) this.#bySuffix.set(host(suffix), id);
      for (const domain of row.domains ?? []) this.#byDomain.set(host(domain), id);
    }
  }

  /** The provider of an event: its MX host's, else its recipient domain's, else the registrable domain of either */
  of(remotemx: string | undefined, recipientdomain: string | undefined): string {
    const key = `${remotemx ?? ''} ${recipientdomain ?? ''}`;
    let provider = this.#remembered.get(key);
    if (provider !== undefined) return provider;
    provider = this.#lookup(remotemx ? host(remotemx) : '', recipientdomain ? host(recipientdomain) : '');
    if (this.#remembered.size >= MAX_REMEMBERED) this.#remembered.clear();
    this.#remembered.set(key, provider);
    return provider;
  }

  #lookup(mx: string, domain: string): string {
    // The longest suffix first: `mail.protection.outlook.com` before `outlook.com`
    for (let name = mx; name !== '';) {
      const found = this.#bySuffix.get(name);
      if (found !== undefined) return found;
      const dot = name.indexOf('.');
      name = dot === -1 ? '' : name.slice(dot + 1);
    }
    const known = this.#byDomain.get(domain);
    if (known !== undefined) return known;
    for (const name of [mx, domain]) {
      if (name === '') continue;
      return getDomain(name, { allowPrivateDomains: false }) ?? name;
    }
    return 'unknown';
  }
}
