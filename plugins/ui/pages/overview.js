// The overview (/ui/): one GET /v1/overview drawn as counts, two charts of the reported events per provider and
// class (uPlot), and today's planned against delivered volume per grouping, with the last day hour by hour for one. Every figure says where it comes from
// in its tooltip (title), reachable from the keyboard (each figure takes focus).
import uPlot from './vendor/uplot/uPlot.esm.js';
import { alertBox, api, el, keyBar } from './api.js';
import { classColour, explainable, number, themedAxis } from './look.js';

const $ = (id) => document.getElementById(id);
let overview;
const charts = {};

const STATUSES = [
  [
    'ONSCHEDULE',
    'Active',
    'Groupings whose schedule runs today: today is one of its days and it is not paused (GET /status, status ONSCHEDULE).',
  ],
  ['PAUSED', 'Paused', 'Groupings paused by an operator (paused: true), whatever their dates (status PAUSED).'],
  ['FINISHED', 'Finished', 'Groupings whose last schedule day has passed (status FINISHED).'],
  ['NOTSTARTED', 'Not started', 'Groupings whose start date is still ahead (status NOTSTARTED).'],
];

/** A colour square; styled through the DOM, since the pages' Content-Security-Policy refuses style attributes */
function swatch(colour) {
  const node = el('span', { class: 'swatch' });
  node.style.background = colour;
  return node;
}

function stat(label, value, why, attributes = {}) {
  return el(
    'div',
    { class: 'stat', ...attributes },
    explainable(el('span', { class: 'value' }, number(value)), why),
    el('span', { class: 'label' }, label),
  );
}

function drawCounts() {
  const { schedules, policies, feed } = overview;
  $('schedules').replaceChildren(
    ...STATUSES.map(([status, label, why]) => stat(label, schedules.statuses[status], why, { 'data-status': status })),
    stat(
      // The holds themselves, with their reasons, are the warm-up page's rows filtered by the word `held`
      schedules.held > 0 ? el('a', { href: 'warmup.html?q=held' }, 'Held') : 'Held',
      schedules.held,
      'Adaptive groupings whose day holds now because bounces from their IP crossed a limit.',
      { 'data-count': 'held' },
    ),
    stat('IPs', schedules.ips, 'IPs with a stored schedule (GET /config).', { 'data-count': 'ips' }),
  );
  const typed = (kind, counts, why) =>
    Object.entries(counts)
      .sort()
      .map(([type, n]) => stat(`${type} ${kind}`, n, why(type), { 'data-kind': kind, 'data-type': type }));
  $('force').replaceChildren(
    ...typed('policies', policies.policies, (type) =>
      type === 'WARMUP'
        ? "WARMUP policies: one per running (IP, grouping) schedule, its day's rate (GET /v1/policies)."
        : `${type} policies: rates and concurrency applied from reported bounces, each with its reason (Backoff policies page).`,
    ),
    ...typed('suspensions', policies.suspends, (type) =>
      type === 'WARMUP'
        ? 'WARMUP suspensions: IPs whose warm-up has nothing running, held whole (warmup-hold).'
        : `${type} suspensions: queues held because of reported bounces (Backoff policies page).`,
    ),
    stat('Connected MTAs', feed.clients, "Clients connected now to this host's policy feed (/v1/policies/feed).", {
      'data-count': 'clients',
    }),
  );
  if (Object.keys(policies.policies).length + Object.keys(policies.suspends).length === 0) {
    $('force').prepend(el('p', { class: 'note' }, 'No policy or suspension is in force.'));
  }
}

/** The selected provider's counts per label (or every provider's summed) */
function countsOf(series, provider) {
  const totals = {};
  for (const entry of series.providers) {
    if (provider !== '' && entry.provider !== provider) continue;
    for (const [label, counts] of Object.entries(entry.counts)) {
      const sum = (totals[label] ??= new Array(counts.length).fill(0));
      counts.forEach((n, i) => (sum[i] += n));
    }
  }
  return totals;
}

function drawChart(name, series, provider) {
  const target = $(`chart-${name}`);
  const totals = countsOf(series, provider);
  const labels = Object.keys(totals).sort((a, b) => (a === 'delivered' ? -1 : b === 'delivered' ? 1 : a < b ? -1 : 1));
  const end = Date.parse(series.end) / 1000;
  const size = name === 'hour' ? 60 : 24;
  const xs = Array.from({ length: size }, (_, i) => end - (size - i) * series.step);
  target.dataset.labels = labels.join(',');
  target.dataset.total = String(labels.reduce((n, label) => n + totals[label].reduce((a, b) => a + b, 0), 0));
  charts[name]?.destroy();
  const axis = themedAxis();
  charts[name] = new uPlot(
    {
      width: Math.max(280, target.clientWidth || 480),
      height: 220,
      scales: { x: { time: true } },
      series: [
        {},
        ...labels.map((label) => ({ label, stroke: classColour(label), width: 2, points: { show: false } })),
      ],
      axes: [axis, { ...axis, size: 50 }],
      legend: { live: false },
    },
    [xs, ...labels.map((label) => totals[label])],
    target,
  );
  target.setAttribute('role', 'img');
  target.setAttribute(
    'aria-label',
    labels.length === 0
      ? `No events in the last ${name}`
      : `Events in the last ${name}: ${labels.map((label) => `${label} ${totals[label].reduce((a, b) => a + b, 0)}`).join(', ')}`,
  );
}

function drawBounces() {
  const select = $('provider');
  const chosen = select.value;
  const providers = [
    ...new Set([...overview.bounces.day.providers, ...overview.bounces.hour.providers].map((p) => p.provider)),
  ].sort();
  select.replaceChildren(
    el('option', { value: '' }, 'All providers'),
    ...providers.map((p) => el('option', { value: p, selected: p === chosen }, p)),
  );
  const provider = providers.includes(chosen) ? chosen : '';
  drawChart('hour', overview.bounces.hour, provider);
  drawChart('day', overview.bounces.day, provider);
  // The same figures as a table: readable without the charts, and each count explained
  const hour = countsOf(overview.bounces.hour, provider);
  const day = countsOf(overview.bounces.day, provider);
  const labels = Object.keys(day).sort();
  const total = (counts) => (counts ?? []).reduce((a, b) => a + b, 0);
  const why = (label, window) =>
    label === 'delivered'
      ? `Events reported with outcome "delivered" in the last ${window}.`
      : `Failed attempts in the last ${window} whose reply the backoff model (or one of its rules) put in class ${label}; the Classifier page shows which for a given reply.`;
  $('bounce-table').replaceChildren(
    labels.length === 0
      ? el('p', { class: 'note' }, 'No event was reported in the last day.')
      : el(
          'table',
          { class: 'compact' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { scope: 'col' }, 'Class'),
              el('th', { scope: 'col', class: 'num' }, 'Last hour'),
              el('th', { scope: 'col', class: 'num' }, 'Last day'),
            ),
          ),
          el(
            'tbody',
            {},
            labels.map((label) =>
              el(
                'tr',
                { 'data-label': label },
                el('th', { scope: 'row' }, swatch(classColour(label)), ' ', el('span', { class: 'mono' }, label)),
                el('td', { class: 'num' }, explainable(el('span', {}, number(total(hour[label]))), why(label, 'hour'))),
                el('td', { class: 'num' }, explainable(el('span', {}, number(total(day[label]))), why(label, 'day'))),
              ),
            ),
          ),
        ),
  );
}

function drawVolume() {
  const rows = overview.volume;
  if (rows.length === 0)
    return $('volume').replaceChildren(
      el('p', { class: 'note' }, 'No schedule runs and no delivery was reported today.'),
    );
  const top = Math.max(1, ...rows.map((r) => Math.max(r.planned, r.delivered ?? 0)));
  const bar = (value, kind) => {
    const node = el('span', { class: `bar ${kind}` });
    node.style.width = `${(100 * value) / top}%`;
    return node;
  };
  $('volume').replaceChildren(
    el(
      'table',
      { class: 'volume' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'Grouping'),
          el('th', { scope: 'col', class: 'num' }, 'Planned'),
          el('th', { scope: 'col', class: 'num' }, 'Delivered'),
          el('th', { scope: 'col' }, el('span', { class: 'visually-hidden' }, 'Bars')),
        ),
      ),
      el(
        'tbody',
        {},
        rows.map((r) =>
          el(
            'tr',
            { 'data-grouping': r.grouping },
            el('th', { scope: 'row', class: 'mono' }, r.grouping),
            el(
              'td',
              { class: 'num planned' },
              explainable(
                el('span', {}, number(r.planned)),
                `Sum over the running ${r.grouping} schedules of today's schedule-day volume times the intervals in a day (a volume per 3,600 s interval counts 24 times).`,
              ),
            ),
            el(
              'td',
              { class: 'num delivered' },
              r.delivered === null
                ? explainable(
                    el('span', {}, '—'),
                    'The MTA reported no delivery for this grouping today (POST /v1/backoff/events, outcome "delivered").',
                  )
                : explainable(
                    el('span', {}, number(r.delivered)),
                    'Deliveries the MTA reported today for this grouping (POST /v1/backoff/events, outcome "delivered").',
                  ),
            ),
            el(
              'td',
              { class: 'bars', 'aria-hidden': 'true' },
              bar(r.planned, 'planned'),
              bar(r.delivered ?? 0, 'delivered'),
            ),
          ),
        ),
      ),
    ),
    el(
      'ul',
      { class: 'legend' },
      el('li', {}, el('span', { class: 'swatch planned' }), ' planned'),
      el('li', {}, el('span', { class: 'swatch delivered' }), ' delivered'),
    ),
  );
}

/** The last day hour by hour, planned against delivered, of the grouping chosen (the names the answer gives hours) */
function drawVolumeHours() {
  const select = $('volume-grouping');
  const named = overview.volume.filter((r) => r.hours);
  const chosen = named.some((r) => r.grouping === select.value) ? select.value : named[0]?.grouping;
  select.replaceChildren(
    ...named.map((r) => el('option', { value: r.grouping, selected: r.grouping === chosen }, r.grouping)),
  );
  select.disabled = named.length === 0;
  const target = $('chart-volume');
  charts.volume?.destroy();
  delete charts.volume;
  const row = named.find((r) => r.grouping === chosen);
  if (!row) {
    target.removeAttribute('role');
    target.removeAttribute('aria-label');
    return target.replaceChildren(
      el('p', { class: 'note' }, 'No schedule ran and no delivery was reported in the last day.'),
    );
  }
  target.replaceChildren();
  // The buckets of the day's event chart: 24 hours, the last holding now
  const end = Date.parse(overview.bounces.day.end) / 1000;
  const xs = Array.from({ length: 24 }, (_, i) => end - (24 - i) * 3600);
  const style = getComputedStyle(document.documentElement);
  const colour = (name) => style.getPropertyValue(`--${name}`).trim();
  const axis = themedAxis();
  charts.volume = new uPlot(
    {
      width: Math.max(280, target.clientWidth || 480),
      height: 220,
      scales: { x: { time: true } },
      series: [
        {},
        { label: 'planned', stroke: colour('planned'), width: 2, points: { show: false } },
        { label: 'delivered', stroke: colour('delivered'), width: 2, points: { show: false } },
      ],
      axes: [axis, { ...axis, size: 50 }],
      legend: { live: false },
    },
    [xs, row.hours.planned, row.hours.delivered],
    target,
  );
  const total = (counts) => number(counts.reduce((a, b) => a + b, 0));
  target.dataset.grouping = row.grouping;
  target.setAttribute('role', 'img');
  target.setAttribute(
    'aria-label',
    `${row.grouping} in the last day: ${total(row.hours.planned)} planned (a day's volume spread evenly over its hours), ${total(row.hours.delivered)} delivered`,
  );
}

async function load() {
  try {
    overview = await api('GET', '/v1/overview');
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot load the overview: ${error.message}`);
    return;
  }
  alertBox('');
  drawCounts();
  drawBounces();
  drawVolume();
  drawVolumeHours();
  $('updated').textContent = `As of ${new Date(overview.time).toLocaleTimeString('en-GB')}`;
  document.body.dataset.loaded = overview.time;
}

keyBar(load);
$('reload').addEventListener('click', load);
$('provider').addEventListener('change', drawBounces);
$('volume-grouping').addEventListener('change', drawVolumeHours);
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  if (!overview) return;
  drawBounces();
  drawVolumeHours();
});
void load();
