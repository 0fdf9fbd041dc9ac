// The backoff policies page: the BACKOFF policies and suspensions in force (GET /v1/policies), each with why it applies
// (GET /v1/policies/{id}), the time it has left (its expiry as the audit trail recorded it when it was applied or
// escalated) and a Lift button (DELETE /v1/policies/{id}); below, per provider, the classes of the policies applied in
// the last hour and day, counted from the audit trail. Warm-up policies and holds belong to the warm-up page.
import { alertBox, api, el, keyBar } from './api.js';
import { classColour, explainable, number } from './look.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const SCOPE_FIELDS = [
  'localip',
  'remoteip',
  'remotemx',
  'recipientdomain',
  'grouping',
  'tenantid',
  'jobid',
  'transportid',
];

/** Rows in force: `{ id, kind, object, provider, klass, scope, reason?, expires? }` */
let rows = [];
let warmups = 0;

const escapeId = (id) => encodeURIComponent(id);

function row(kind, object) {
  const then = kind === 'policy' ? (object.then ?? {}) : object;
  const scope =
    kind === 'policy'
      ? { ...object.if }
      : Object.fromEntries(SCOPE_FIELDS.filter((f) => object[f] !== undefined).map((f) => [f, object[f]]));
  return { id: object.id, kind, object, provider: then.properties?.provider ?? '—', klass: then.tag ?? '—', scope };
}

function applies(r) {
  if (r.kind === 'suspend') return 'suspend (queue held)';
  const then = r.object.then ?? {};
  const parts = [];
  if (then.rate)
    parts.push(`rate ${number(then.rate.count)} per ${then.rate.interval} s (${then.rate.algorithm ?? 'TOKENBUCKET'})`);
  if (then.concurrency !== undefined) parts.push(`concurrency ${then.concurrency}`);
  return parts.join(', ') || '—';
}

function timeLeft(r) {
  if (r.expires === undefined) return r.object.ttl ? `${r.object.ttl} s TTL (applied time unknown)` : 'until lifted';
  const s = Math.max(0, Math.round((r.expires - Date.now()) / 1000));
  if (s === 0) return 'lapsing';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

const when = (iso) => (iso ? new Date(iso).toLocaleString('en-GB', { timeZoneName: 'short' }) : '—');
const pct = (x) => `${(x * 100).toFixed(1)} %`;

/** The reason as a definition list: what triggered it, against what threshold, over which events, decided how */
function explanation(r) {
  const reason = r.reason;
  if (!reason) return el('p', { class: 'note' }, 'No explanation is stored with this policy.');
  const t = reason.trigger;
  const trigger =
    t.kind === 'share'
      ? `share: ${pct(t.observed)} of ${t.attempts === undefined ? '?' : number(t.attempts)} ` +
        `attempts${t.group ? ` (group ${t.group})` : ''} reached the threshold of ${pct(t.threshold)} ` +
        `with at least ${t.minAttempts === undefined ? '?' : number(t.minAttempts)} attempts`
      : `count: ${number(t.observed)} events reached the threshold of ${number(t.threshold)}`;
  const decided =
    reason.decidedBy?.rule !== undefined
      ? `rule ${reason.decidedBy.rule}`
      : reason.decidedBy?.model !== undefined
        ? `model ${reason.decidedBy.model}${reason.decidedBy.probability !== undefined ? ` with probability ${pct(reason.decidedBy.probability)}` : ''}`
        : 'not recorded (the classifier gave no explanation)';
  const item = (term, value, name) => [el('dt', {}, term), el('dd', { 'data-field': name }, value)];
  return el(
    'dl',
    { class: 'reason' },
    item('Trigger', trigger, 'trigger'),
    item('Window', `${number(t.window)} s`, 'window'),
    item('Events counted', number(reason.events), 'events'),
    item('First / last', `${when(reason.first)} – ${when(reason.last)}`, 'span'),
    item('Class decided by', decided, 'decided'),
    item('Escalations', String(reason.level ?? 0), 'level'),
    item('Sample reply (addresses masked)', el('code', {}, reason.sample), 'sample'),
  );
}

function filtered() {
  const provider = $('f-provider').value;
  const klass = $('f-class').value;
  const ip = $('f-ip').value.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (provider === '' || r.provider === provider) &&
      (klass === '' || r.klass === klass) &&
      (ip === '' ||
        [r.scope.localip, r.scope.remoteip, r.reason?.localip].some(
          (v) => typeof v === 'string' && v.toLowerCase().includes(ip),
        )),
  );
}

function options(select, values) {
  const kept = select.value;
  select.replaceChildren(
    el('option', { value: '' }, 'All'),
    ...[...new Set(values)].sort().map((v) => el('option', { value: v }, v)),
  );
  select.value = values.includes(kept) ? kept : '';
}

/** Where a row's class comes from: the replies that triggered it, and whether a rule or the model classed them */
function classWhy(r) {
  const by = r.reason?.decidedBy;
  const decided =
    by?.rule !== undefined
      ? `the classifier's rule "${by.rule}" matched the replies`
      : by?.model !== undefined
        ? `no rule matched: the model "${by.model}" classed the replies`
        : 'the reason stored with it does not say whether a rule or the model decided';
  return `The backoff class of the replies that triggered this ${r.kind === 'policy' ? 'policy' : 'suspension'}; ${decided}.`;
}

function render() {
  const shown = filtered();
  $('summary').textContent =
    `${number(shown.length)} of ${number(rows.length)} backoff policies and suspensions in force`;
  $('warmups').textContent =
    warmups === 0 ? '' : `${number(warmups)} warm-up policies and holds are not listed here: see the warm-up page.`;
  $('policies').tBodies[0].replaceChildren(
    ...shown.flatMap((r, i) => {
      const detailId = `why-${i}`;
      const detail = el('tr', { id: detailId, class: 'detail hidden' }, el('td', { colspan: 6 }, explanation(r)));
      const why = el(
        'button',
        {
          type: 'button',
          'aria-expanded': 'false',
          'aria-controls': detailId,
          onclick: () => {
            const open = detail.classList.toggle('hidden') === false;
            why.setAttribute('aria-expanded', String(open));
          },
        },
        'Why',
      );
      const lift = el(
        'button',
        { type: 'button', class: 'danger', 'aria-label': `Lift ${r.id}`, onclick: () => liftOne(r) },
        'Lift',
      );
      return [
        el(
          'tr',
          { 'data-id': r.id, 'data-provider': r.provider, 'data-class': r.klass },
          el('td', { class: 'provider' }, r.provider),
          el('td', { class: 'mono class' }, explainable(el('span', {}, r.klass), classWhy(r))),
          el(
            'td',
            { class: 'mono scope' },
            Object.entries(r.scope)
              .map(([k, v]) => `${k}=${v}`)
              .join(' '),
          ),
          el('td', { class: 'applies' }, applies(r)),
          el(
            'td',
            {
              class: 'left num',
              title:
                'Until its TTL lapses, counted from the expiry the audit trail recorded when it was applied or escalated',
            },
            timeLeft(r),
          ),
          el('td', { class: 'actions' }, why, ' ', lift),
        ),
        detail,
      ];
    }),
  );
}

async function liftOne(r) {
  if (
    !window.confirm(
      `Lift ${r.kind === 'suspend' ? 'the suspension' : 'the policy'} "${r.id}"? The MTA stops applying it now.`,
    )
  )
    return;
  alertBox('');
  try {
    const answer = await api('DELETE', `/v1/policies/${escapeId(r.id)}`);
    rows = rows.filter((x) => x.id !== r.id);
    $('done').textContent = `Lifted "${answer?.lifted ?? r.id}".`;
    render();
  } catch (error) {
    if (error.status === 404) {
      rows = rows.filter((x) => x.id !== r.id);
      render();
      $('done').textContent = `"${r.id}" was no longer in force.`;
    } else if (error.status !== 401) alertBox(`Cannot lift "${r.id}": ${error.message}`);
  }
}

/** Audit entries of one action since `from` (paged through `next`) */
async function auditSince(action, from) {
  const entries = [];
  let cursor;
  do {
    const query = new URLSearchParams({
      action,
      from: new Date(from).toISOString(),
      limit: '1000',
      ...(cursor ? { cursor } : {}),
    });
    const page = await api('GET', `/v1/audit?${query}`);
    entries.push(...page.entries);
    cursor = page.next;
  } while (cursor && entries.length < 20_000);
  return entries;
}

/** One stacked bar: each class's count as a segment, with the counts in its label for screen readers */
function bar(counts, total, width) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', '18');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', counts.length === 0 ? 'none' : counts.map(([k, n]) => `${n} ${k}`).join(', '));
  let x = 0;
  for (const [klass, n] of counts) {
    const rect = document.createElementNS(SVG, 'rect');
    const w = total === 0 ? 0 : (n / total) * width;
    Object.entries({
      x,
      y: 0,
      width: w,
      height: 18,
      fill: classColour(klass),
      'data-class': klass,
      'data-count': n,
    }).forEach(([a, v]) => rect.setAttribute(a, String(v)));
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${klass}: ${n}`;
    rect.append(title);
    svg.append(rect);
    x += w;
  }
  return svg;
}

async function loadMix() {
  const now = Date.now();
  const entries = (await Promise.all(['policy.apply', 'policy.escalate'].map((a) => auditSince(a, now - DAY)))).flat();
  const mix = new Map(); // provider → { hour: Map(class → n), day: Map(class → n) }
  for (const entry of entries) {
    const reason = entry.after?.reason;
    if (!reason) continue;
    const slot = mix.get(reason.provider) ?? { hour: new Map(), day: new Map() };
    mix.set(reason.provider, slot);
    slot.day.set(reason.class, (slot.day.get(reason.class) ?? 0) + 1);
    if (Date.parse(entry.time) >= now - HOUR) slot.hour.set(reason.class, (slot.hour.get(reason.class) ?? 0) + 1);
  }
  const classes = [...new Set([...mix.values()].flatMap((s) => [...s.day.keys()]))].sort();
  const providers = [...mix.keys()].sort();
  if (providers.length === 0)
    return $('mix-chart').replaceChildren(el('p', { class: 'note' }, 'No backoff policy was applied in the last day.'));
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const cell = (m) => {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    return el('td', {}, bar(sorted(m), total, 240), ' ', el('span', { class: 'note' }, number(total)));
  };
  // Through the CSSOM: the pages' Content-Security-Policy refuses inline style attributes
  const legend = el(
    'ul',
    { class: 'legend' },
    classes.map((k) => {
      const mark = el('span', { class: 'swatch', 'aria-hidden': 'true' });
      mark.style.background = classColour(k);
      return el('li', { 'data-class': k }, mark, ' ', el('code', {}, k));
    }),
  );
  $('mix-chart').replaceChildren(
    el(
      'table',
      { class: 'mix' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Provider'), el('th', {}, 'Last hour'), el('th', {}, 'Last day'))),
      el(
        'tbody',
        {},
        providers.map((p) =>
          el('tr', { 'data-provider': p }, el('td', {}, p), cell(mix.get(p).hour), cell(mix.get(p).day)),
        ),
      ),
    ),
    legend,
  );
}

async function load() {
  alertBox('');
  $('summary').textContent = 'Loading…';
  try {
    const { policies, suspends } = await api('GET', '/v1/policies');
    const all = [...policies.map((p) => ['policy', p]), ...suspends.map((s) => ['suspend', s])];
    warmups = all.filter(([, o]) => o.type === 'WARMUP').length;
    const backoff = all.filter(([, o]) => o.type === 'BACKOFF').map(([kind, o]) => row(kind, o));
    // Each row's reason and expiry: a policy lifted or lapsed meanwhile answers 404 and is left out
    rows = (
      await Promise.all(
        backoff.map(async (r) => {
          try {
            const [explained, trail] = await Promise.all([
              api('GET', `/v1/policies/${escapeId(r.id)}`),
              api('GET', `/v1/audit?${new URLSearchParams({ policy: r.id, limit: '1' })}`).catch(() => ({
                entries: [],
              })),
            ]);
            const latest = trail.entries.find((e) => e.after?.expires !== undefined);
            return {
              ...r,
              reason: explained.reason,
              provider: explained.reason?.provider ?? r.provider,
              expires: latest?.after.expires,
            };
          } catch (error) {
            if (error.status === 404) return undefined;
            throw error;
          }
        }),
      )
    ).filter(Boolean);
    options(
      $('f-provider'),
      rows.map((r) => r.provider),
    );
    options(
      $('f-class'),
      rows.map((r) => r.klass),
    );
    render();
    await loadMix();
  } catch (error) {
    $('summary').textContent = '';
    if (error.status !== 401) alertBox(`Cannot load the policies: ${error.message}`);
  }
}

keyBar(load);
for (const id of ['f-provider', 'f-class']) $(id).addEventListener('change', render);
$('f-ip').addEventListener('input', render);
$('reload').addEventListener('click', load);
// The countdown: only the time-left cells change, so an open explanation stays open
setInterval(() => {
  for (const tr of document.querySelectorAll('#policies tr[data-id]')) {
    const r = rows.find((x) => x.id === tr.dataset.id);
    if (r) tr.querySelector('.left').textContent = timeLeft(r);
  }
}, 1000);
load();
