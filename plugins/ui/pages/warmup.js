// The warm-up page: one page of rows at a time from GET /status with table parameters (paged, sorted and filtered on
// the server), bulk pause/resume/delete through POST /v1/schedules/bulk with the undo its answer carries, CSV import
// with a dry-run preview and export, the planned curve of the selected row, and the editor.
import uPlot from './vendor/uplot/uPlot.esm.js';
import { alertBox, api, el, keyBar } from './api.js';
import { explainable, number, themedAxis } from './look.js';

const PAGE_SIZE = 50;
/** Typing pauses this long before the filter asks the server: not a request per keystroke */
const FILTER_DELAY_MS = 250;
/** Lines of an import preview shown: enough to check a plan, few enough to render at once */
const PREVIEW_LINES = 500;
const FIELDS = ['start.volume', 'start.date', 'end.volume', 'end.date', 'schedule', 'grouping', 'mode'];
const UNITS = [
  [86400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

const $ = (id) => document.getElementById(id);
const form = $('editor');
let rows = [];
let total = 0;
/** Schedules in all, unfiltered: any unfiltered page's total; unknown after a write, until asked again */
let everything;
let page = 0;
let sort = { column: 'ip', order: 'asc' };
/** Selected rows by key (`ip grouping`), kept across pages; `matching` selects the filter's rows instead */
let selection = new Map();
let matching = false;
let selected;
let editing;
let chart;
let undo;
let importText;
let loading = 0;

const path = (ip, grouping, action) =>
  `/config/${encodeURIComponent(ip)}${grouping ? `/${encodeURIComponent(grouping)}` : ''}${action ? `/${action}` : ''}`;
const keyOf = (row) => `${row.ip} ${row.grouping}`;
const plural = (n, word) => `${number(n)} ${word}${n === 1 ? '' : 's'}`;

/** The filter as the table routes and the bulk route take it */
function filter() {
  const q = $('filter').value.trim();
  const status = $('f-status').value;
  return { ...(q ? { q } : {}), ...(status ? { status } : {}) };
}

const filtered = () => Object.keys(filter()).length > 0;

/** "per hour" for 3,600 s: the MTA allows a day's messages per interval, not per day */
function perInterval(seconds) {
  const [size, unit] = UNITS.find(([s]) => seconds % s === 0);
  return seconds === size ? `per ${unit}` : `per ${number(seconds / size)} ${unit}s`;
}

/**
 * Loads the current page; the unfiltered count comes with an unfiltered page, and is asked for on its own only while
 * filtered and unknown (after a write). An older answer never overwrites a newer one
 */
async function load() {
  const ticket = ++loading;
  const narrowed = filtered();
  const query = new URLSearchParams({
    offset: String(page * PAGE_SIZE),
    limit: String(PAGE_SIZE),
    sort: sort.column,
    order: sort.order,
    ...filter(),
  });
  try {
    const [answer, all] = await Promise.all([
      api('GET', `/status?${query}`),
      narrowed && everything === undefined ? api('GET', '/status?limit=1') : undefined,
    ]);
    if (ticket !== loading) return;
    if (answer.rows.length === 0 && answer.total > 0 && page > 0) {
      page = Math.floor((answer.total - 1) / PAGE_SIZE);
      return load();
    }
    rows = answer.rows;
    total = answer.total;
    everything = narrowed ? (all?.total ?? everything) : answer.total;
    alertBox('');
  } catch (error) {
    if (ticket !== loading) return;
    rows = [];
    total = 0;
    everything = undefined;
    if (error.status !== 401) alertBox(`Cannot load the schedules: ${error.message}`);
  }
  render();
  const current = rows.find((row) => keyOf(row) === selected);
  if (!current) hideChart();
}

/** A row's controls that take focus, in the order Tab visits them */
const controlsOf = (tr) => [...tr.querySelectorAll('input, button, [tabindex]')];

function render() {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // The rows are drawn anew: the control that had focus gets it back in its row's new copy, so that a keyboard
  // keeps its place after ticking a row or pausing it instead of starting again from the top of the page
  const focusedRow = document.activeElement?.closest('#rows tr');
  const refocus = focusedRow && {
    key: `${focusedRow.dataset.ip} ${focusedRow.dataset.grouping}`,
    index: controlsOf(focusedRow).indexOf(document.activeElement),
  };
  $('rows').replaceChildren(
    ...rows.map((row) => {
      const paused = row.status === 'PAUSED';
      const checked = matching || selection.has(keyOf(row));
      const today = row.status === 'ONSCHEDULE' ? `${number(row.messages)} ${perInterval(row.interval)}` : '—';
      return el(
        'tr',
        { 'data-ip': row.ip, 'data-grouping': row.grouping, class: keyOf(row) === selected ? 'selected' : undefined },
        el(
          'td',
          {},
          el('input', {
            type: 'checkbox',
            class: 'pick',
            'aria-label': `Select ${row.ip} ${row.grouping}`,
            checked,
            disabled: matching,
            onchange: (event) => pick(row, event.target.checked),
          }),
        ),
        el('td', { class: 'mono ip' }, row.ip),
        el('td', { class: 'mono grouping' }, row.grouping),
        el('td', {}, row.mode),
        el(
          'td',
          { class: `status status-${row.status}` },
          explainable(el('span', {}, row.status), statusWhy(row)),
          ...(row.hold ? [' ', explainable(el('span', { class: 'held-mark' }, 'held'), holdWhy(row).trim())] : []),
        ),
        el('td', { class: 'num day' }, explainable(el('span', {}, `${row.current_day} / ${row.days}`), dayWhy(row))),
        el('td', { class: 'num volume' }, explainable(el('span', {}, today), volumeWhy(row))),
        el(
          'td',
          { class: 'rate' },
          el('span', {}, `${row.algorithm},`),
          ' ',
          el('span', {}, `${number(row.interval)} s`),
        ),
        el(
          'td',
          { class: 'dates' },
          el('span', {}, `${row.start.date} (${number(row.start.volume)})`),
          ' ',
          el('span', {}, `→ ${row.end.date} (${number(row.end.volume)})`),
        ),
        el(
          'td',
          {},
          el(
            'div',
            { class: 'row-actions' },
            el('button', { type: 'button', onclick: () => showChart(row) }, 'Chart'),
            el('button', { type: 'button', onclick: () => openEditor(row) }, 'Edit'),
            el(
              'button',
              { type: 'button', onclick: () => bulk(paused ? 'resume' : 'pause', [row]) },
              paused ? 'Resume' : 'Pause',
            ),
            el('button', { type: 'button', class: 'danger', onclick: () => bulk('delete', [row]) }, 'Delete'),
          ),
        ),
      );
    }),
  );
  if (refocus) {
    const tr = [...$('rows').children].find((row) => `${row.dataset.ip} ${row.dataset.grouping}` === refocus.key);
    if (tr) controlsOf(tr)[refocus.index]?.focus();
  }
  $('summary').textContent = `${number(total)} of ${number(everything ?? total)} schedules`;
  $('page').textContent = `Page ${page + 1} of ${pages}`;
  $('prev').disabled = page === 0;
  $('next').disabled = page >= pages - 1;
  for (const th of document.querySelectorAll('th[data-sort]')) {
    th.setAttribute(
      'aria-sort',
      th.dataset.sort === sort.column ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none',
    );
  }
  $('select-page').checked = rows.length > 0 && rows.every((row) => matching || selection.has(keyOf(row)));
  $('select-page').disabled = matching;
  showSelection();
}

/** Where the schedule's days come from: its dates, and for AUTO the ramp between its first and last volume */
function planWhy(row) {
  const dates = `${row.start.date} (day 1) to ${row.end.date} (day ${number(row.days)})`;
  return row.mode === 'AUTO'
    ? `AUTO schedule from ${dates}: ${number(row.start.volume)} messages ${perInterval(row.interval)} on day 1, changing by the same factor each day (rounded) to ${number(row.end.volume)} on the last`
    : `MANUAL schedule from ${dates}: each day's messages as listed in its config`;
}

/** A hold of an adaptive grouping's day, or nothing */
const holdWhy = (row) => (row.hold ? ` Held since ${row.hold.since}: ${row.hold.reason}.` : '');

function statusWhy(row) {
  const why = {
    ONSCHEDULE: `On schedule: today is day ${number(row.current_day)} of ${number(row.days)}, and the policy feed gives the MTA this day's rate.`,
    NOTSTARTED: `Not started: today is before ${row.start.date}, day 1 of the schedule; the feed sends this grouping nothing until then.`,
    FINISHED: `Finished: today is past ${row.end.date}, the last of the schedule's ${number(row.days)} days; the feed no longer limits this grouping.`,
    PAUSED: `Paused (the grouping or its whole IP, by an operator or a bulk action), whatever its dates: the feed allows it nothing until it is resumed.`,
  }[row.status];
  return `${why}${holdWhy(row)} ${planWhy(row)}.`;
}

function dayWhy(row) {
  const reached = row.adaptive
    ? 'the day its adaptive warm-up has reached: holds and step-backs keep it behind the calendar'
    : `days since ${row.start.date}, which is day 1`;
  const when =
    row.current_day === 0 ? 'not started (day 0)' : row.current_day > row.days ? 'past the last day' : 'today';
  return `Day ${number(row.current_day)} of ${number(row.days)} (${when}): ${reached}.${holdWhy(row)}`;
}

function volumeWhy(row) {
  const day = `day ${row.current_day} of ${row.days}`;
  if (row.status !== 'ONSCHEDULE') return `${row.status}: nothing allowed today (${day}).`;
  const rate = `${number(row.messages)} messages allowed per ${number(row.interval)} s (${perInterval(row.interval)}) today, ${day} of the ${row.mode} schedule`;
  return `${rate}, enforced by the MTA as ${row.algorithm} (the interval's count, not a daily total). ${planWhy(row)}.`;
}

function pick(row, on) {
  if (on) selection.set(keyOf(row), { ip: row.ip, grouping: row.grouping });
  else selection.delete(keyOf(row));
  render();
}

function showSelection() {
  const n = matching ? total : selection.size;
  $('selected-count').textContent = matching
    ? `All ${plural(total, 'schedule')} matching the filter selected`
    : n === 0
      ? 'None selected'
      : `${plural(n, 'schedule')} selected`;
  for (const id of ['bulk-pause', 'bulk-resume', 'bulk-delete']) $(id).disabled = n === 0;
  $('clear-selection').disabled = n === 0;
  $('select-matching').disabled = matching || total === 0;
}

function clearSelection() {
  selection = new Map();
  matching = false;
}

const VERBS = { pause: 'Paused', resume: 'Resumed', delete: 'Deleted', restore: 'Restored' };

/**
 * Runs a bulk action over `targets` (rows), the selection, or the filter's rows; pause and delete ask first. The
 * answer's `undo` is kept for the Undo button, and only the current page is loaded again
 */
async function bulk(action, targets) {
  const over = targets ?? (matching ? undefined : [...selection.values()]);
  const n = over ? over.length : total;
  const what = over?.length === 1 ? `${over[0].ip} ${over[0].grouping}` : plural(n, 'schedule');
  if (
    action === 'delete' &&
    !confirm(`Delete ${what}? An IP whose last grouping is deleted goes with it. You can undo this right after.`)
  )
    return;
  if (action === 'pause' && n > 1 && !confirm(`Pause ${what}? The MTA stops sending on them until resumed.`)) return;
  const body = over
    ? { action, targets: over.map(({ ip, grouping }) => ({ ip, grouping })) }
    : { action, filter: filter() };
  await send(body, { clear: targets === undefined, undoable: true });
}

/** Sends a bulk request and says what it did, offering its undo when `undoable` */
async function send(body, { clear, undoable }) {
  let answer;
  try {
    answer = await api('POST', '/v1/schedules/bulk', body);
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot ${body.action} the schedules: ${error.message}`);
    return;
  }
  if (clear) clearSelection();
  if (body.action === 'delete')
    for (const target of answer.changed) if (selected?.startsWith(`${target.ip} `)) selected = undefined;
  const parts = [`${VERBS[answer.action]} ${plural(answer.changed.length, 'schedule')}`];
  if (answer.unchanged.length > 0) parts.push(`${number(answer.unchanged.length)} already so`);
  if (answer.missing.length > 0) parts.push(`${number(answer.missing.length)} no longer there`);
  if (answer.failed?.length > 0) parts.push(`${number(answer.failed.length)} IPs busy, not changed: try again`);
  done(`${parts.join(', ')}.`, undoable ? answer.undo : undefined);
  await reload();
}

/** Loads the page again after a write, or when asked: the unfiltered count may have changed too */
function reload() {
  everything = undefined;
  return load();
}

/** Shows what the last action did, with its Undo when there is one */
function done(message, reverse) {
  $('done-text').textContent = message;
  offerUndo(reverse);
}

function offerUndo(reverse) {
  undo = reverse;
  $('undo').classList.toggle('hidden', !undo);
}

async function undoLast() {
  const reverse = undo;
  if (!reverse) return;
  // Withdrawn at once, so that it is not sent twice; and the undo of an undo is never offered, not even while the
  // page reloads: Undo means back to before the last action
  offerUndo(undefined);
  await send(reverse, { clear: false, undoable: false });
}

function hideChart() {
  chart?.destroy();
  chart = undefined;
  $('chart-box').classList.add('hidden');
}

async function showChart(row) {
  selected = keyOf(row);
  render();
  let state;
  try {
    state = await api('GET', `/status/${encodeURIComponent(row.ip)}/${encodeURIComponent(row.grouping)}`);
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot load ${row.ip} ${row.grouping}: ${error.message}`);
    return;
  }
  if (selected !== keyOf(row)) return;
  const xs = state.schedule.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
  const ys = state.schedule.map((day) => day.messages);
  const today = state.schedule[state.current_day - 1];
  const unit = perInterval(state.interval);
  $('chart-box').classList.remove('hidden');
  $('chart-title').textContent = `${row.ip} ${row.grouping}: planned messages ${unit}, by schedule day`;
  $('chart-note').textContent = today
    ? `Today is day ${state.current_day} of ${state.schedule.length}: ${number(today.messages)} messages ${unit} (${state.status}, ${state.algorithm})`
    : state.current_day === 0
      ? `Not started: day 1 is ${state.start.date}`
      : `Finished on ${state.end.date}`;
  const target = $('chart');
  target.dataset.days = String(xs.length);
  target.dataset.today = today ? String(state.current_day) : '';
  chart?.destroy();
  const todayX = today ? xs[state.current_day - 1] : undefined;
  chart = new uPlot(
    {
      width: Math.max(320, target.clientWidth || 800),
      height: 260,
      scales: { x: { time: true } },
      series: [{}, { label: `Planned messages ${unit}`, stroke: '#2b6cb0', width: 2, fill: 'rgba(43,108,176,0.08)' }],
      axes: [themedAxis(), { ...themedAxis(), size: 70 }],
      hooks: {
        draw: [
          (u) => {
            if (todayX === undefined) return;
            // Today as a vertical line across the plot, so the day stands out on a long ramp
            const x = u.valToPos(todayX, 'x', true);
            const { ctx } = u;
            ctx.save();
            ctx.strokeStyle = '#d62828';
            ctx.lineWidth = 2;
            ctx.setLineDash([6, 4]);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.fillStyle = '#d62828';
            ctx.font = `${12 * devicePixelRatio}px system-ui`;
            ctx.fillText('today', x + 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio);
            ctx.restore();
          },
        ],
      },
    },
    [xs, ys],
    target,
  );
}

/** Sends a CSV file to the import route: a dry run first, whose changes (or line errors) are shown for approval */
async function previewImport(file) {
  importText = await file.text();
  $('import-file').value = '';
  const box = $('import-preview');
  box.classList.remove('hidden');
  $('import-title').textContent = `Import ${file.name}`;
  const tbody = $('import-changes').querySelector('tbody');
  tbody.replaceChildren();
  $('import-errors').replaceChildren();
  $('import-apply').disabled = true;
  let answer;
  try {
    answer = await api('POST', '/v1/schedules/import?dry_run=true', importText, { type: 'text/csv' });
  } catch (error) {
    if (error.status !== 401) $('import-summary').textContent = error.message;
    return;
  }
  if (answer.errors.length > 0) {
    $('import-summary').textContent = `${plural(answer.errors.length, 'line')} to fix; nothing was written:`;
    $('import-errors').replaceChildren(
      ...answer.errors
        .slice(0, PREVIEW_LINES)
        .map((e) => el('li', { 'data-line': e.line }, `Line ${e.line}: ${e.error}`)),
    );
    return;
  }
  const counts = { create: 0, update: 0, unchanged: 0 };
  for (const change of answer.changes) counts[change.change]++;
  const listed = answer.changes.length > PREVIEW_LINES ? ` The first ${number(PREVIEW_LINES)} lines are listed.` : '';
  $('import-summary').textContent =
    `Dry run: ${number(counts.create)} to create, ${number(counts.update)} to update, ${number(counts.unchanged)} unchanged. Nothing is written until you apply it.${listed}`;
  tbody.replaceChildren(
    ...answer.changes
      .slice(0, PREVIEW_LINES)
      .map((c) =>
        el(
          'tr',
          { 'data-line': c.line, class: `change-${c.change}` },
          el('td', { class: 'num' }, c.line),
          el('td', { class: 'mono' }, c.ip),
          el('td', { class: 'mono' }, c.grouping),
          el('td', {}, c.change),
        ),
      ),
  );
  $('import-apply').disabled = counts.create + counts.update === 0;
}

async function applyImport() {
  try {
    const answer = await api('POST', '/v1/schedules/import', importText, { type: 'text/csv' });
    const written = answer.changes.filter((c) => c.change !== 'unchanged').length;
    done(`Imported ${plural(written, 'schedule')} (${number(answer.changes.length - written)} unchanged).`);
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot import: ${error.message}`);
    return;
  }
  closeImport();
  await reload();
}

function closeImport() {
  importText = undefined;
  $('import-preview').classList.add('hidden');
}

/** Downloads the filter's rows as CSV through the export route (with the key, so not a plain link) */
async function exportCsv() {
  let csv;
  try {
    csv = await api('GET', `/v1/schedules/export?${new URLSearchParams(filter())}`, undefined, { as: 'blob' });
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot export: ${error.message}`);
    return;
  }
  const url = URL.createObjectURL(csv);
  const link = el('a', { href: url, download: 'schedules.csv' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function showMode() {
  const mode = form.elements.mode.value;
  for (const label of form.querySelectorAll('[data-mode]'))
    label.classList.toggle('hidden', label.dataset.mode !== mode);
}

function clearErrors() {
  for (const slot of form.querySelectorAll('.field-error')) slot.textContent = '';
}

/** Puts the API's message next to the field it names, or under the form when it names none */
function fieldError(message) {
  const named = /groupings\[\d+\]\.([a-z.]+)/.exec(message)?.[1];
  const field = /IP address|IP "/.test(message)
    ? 'ip'
    : (FIELDS.find((f) => named === f || named?.startsWith(`${f}.`)) ?? 'form');
  const slot = form.querySelector(`.field-error[data-for="${field}"]`);
  slot.textContent = message;
  form
    .querySelector(
      `[name="${{ 'start.date': 'startDate', 'start.volume': 'startVolume', 'end.date': 'endDate', 'end.volume': 'endVolume' }[field] ?? field}"]`,
    )
    ?.focus();
}

async function openEditor(row) {
  let config;
  if (row) {
    try {
      config = await api('GET', path(row.ip, row.grouping));
    } catch (error) {
      if (error.status !== 401) alertBox(`Cannot load ${row.ip} ${row.grouping}: ${error.message}`);
      return;
    }
  }
  editing = row && { ...row, config };
  clearErrors();
  form.reset();
  form.classList.remove('hidden');
  const f = form.elements;
  f.ip.readOnly = row !== undefined;
  f.grouping.readOnly = row !== undefined;
  if (config) {
    f.ip.value = row.ip;
    f.grouping.value = row.grouping;
    f.mode.value = config.mode;
    f.startDate.value = config.start.date;
    f.startVolume.value = config.start.volume ?? '';
    f.endDate.value = config.end?.date ?? '';
    f.endVolume.value = config.end?.volume ?? '';
    f.schedule.value = (config.schedule ?? []).map((d) => d.messages).join('\n');
    f.paused.checked = config.paused;
  }
  showMode();
  (row ? f.mode : f.ip).focus();
}

function groupingFromForm(previous) {
  const f = form.elements;
  const numeric = (input) => (input.value.trim() === '' ? undefined : Number(input.value));
  const grouping = {
    grouping: f.grouping.value.trim(),
    mode: f.mode.value,
    start: { date: f.startDate.value || undefined },
    paused: f.paused.checked,
    ...(previous
      ? {
          algorithm: previous.algorithm,
          interval: previous.interval,
          properties: previous.properties,
          ...(previous.adaptive ? { adaptive: previous.adaptive } : {}),
        }
      : {}),
  };
  if (grouping.mode === 'AUTO') {
    grouping.start.volume = numeric(f.startVolume);
    grouping.end = { date: f.endDate.value || undefined, volume: numeric(f.endVolume) };
  } else {
    const lines = f.schedule.value
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    grouping.schedule =
      lines.length === 0 ? undefined : lines.map((line, index) => ({ day: index + 1, messages: Number(line) }));
  }
  return JSON.parse(JSON.stringify(grouping));
}

async function save(event) {
  event.preventDefault();
  clearErrors();
  const ip = editing?.ip ?? form.elements.ip.value.trim();
  if (ip === '') return fieldError('Enter the IP address');
  const grouping = groupingFromForm(editing?.config);
  try {
    // The IP's other groupings as they are now: PUT replaces them all
    const existing = await api('GET', path(ip)).catch((error) => {
      if (error.status === 404) return undefined;
      throw error;
    });
    if (editing) {
      await api('PUT', path(ip), {
        groupings: existing.groupings.map((g) => (g.grouping === editing.grouping ? grouping : g)),
      });
    } else if (existing?.groupings.some((g) => g.grouping === grouping.grouping)) {
      return fieldError(`Grouping "${grouping.grouping}" of IP "${ip}" exists: use Edit on its row`);
    } else if (existing) await api('PUT', path(ip), { groupings: [...existing.groupings, grouping] });
    else await api('POST', path(ip), { groupings: [grouping] });
  } catch (error) {
    if (error.status !== 401) fieldError(error.message);
    return;
  }
  form.classList.add('hidden');
  editing = undefined;
  done(`Saved ${ip} ${grouping.grouping}.`);
  await reload();
  // Its curve, whether or not the filter and sort put its row on this page
  await showChart({ ip, grouping: grouping.grouping });
}

function debounce(run, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

const refilter = () => {
  page = 0;
  matching = false;
  load();
};

keyBar(reload);
form.elements.mode.addEventListener('change', showMode);
form.addEventListener('submit', save);
$('cancel').addEventListener('click', () => {
  form.classList.add('hidden');
  editing = undefined;
});
$('new').addEventListener('click', () => openEditor(undefined));
$('reload').addEventListener('click', reload);
$('filter').addEventListener('input', debounce(refilter, FILTER_DELAY_MS));
// A link may open the page filtered (the overview's Held count opens `?q=held`)
$('filter').value = new URLSearchParams(location.search).get('q') ?? '';
$('f-status').addEventListener('change', refilter);
$('prev').addEventListener('click', () => {
  page -= 1;
  load();
});
$('next').addEventListener('click', () => {
  page += 1;
  load();
});
for (const th of document.querySelectorAll('th[data-sort]')) {
  th.querySelector('button').addEventListener('click', () => {
    const column = th.dataset.sort;
    sort = { column, order: sort.column === column && sort.order === 'asc' ? 'desc' : 'asc' };
    page = 0;
    load();
  });
}
$('select-page').addEventListener('change', (event) => {
  for (const row of rows) {
    if (event.target.checked) selection.set(keyOf(row), { ip: row.ip, grouping: row.grouping });
    else selection.delete(keyOf(row));
  }
  render();
});
$('select-matching').addEventListener('click', () => {
  matching = true;
  selection = new Map();
  render();
});
$('clear-selection').addEventListener('click', () => {
  clearSelection();
  render();
});
$('bulk-pause').addEventListener('click', () => bulk('pause'));
$('bulk-resume').addEventListener('click', () => bulk('resume'));
$('bulk-delete').addEventListener('click', () => bulk('delete'));
$('undo').addEventListener('click', undoLast);
$('import-file').addEventListener('change', (event) => event.target.files[0] && previewImport(event.target.files[0]));
$('import-apply').addEventListener('click', applyImport);
$('import-cancel').addEventListener('click', closeImport);
$('export').addEventListener('click', exportCsv);
// The curve's axes take the theme's colours when drawn: drawn again when the system switches between light and dark
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  if (!chart || !selected) return;
  const space = selected.indexOf(' ');
  showChart({ ip: selected.slice(0, space), grouping: selected.slice(space + 1) });
});
load();
