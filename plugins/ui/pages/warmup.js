// The warm-up page: every IP's groupings from GET /config and GET /status (the status items come in the order of the
// IP's configured groupings), one page of rows at a time, the planned curve of the selected one, and the editor.
import uPlot from './vendor/uplot/uPlot.esm.js';
import { alertBox, api, el, keyBar } from './api.js';

const PAGE_SIZE = 50;
const FIELDS = ['start.volume', 'start.date', 'end.volume', 'end.date', 'schedule', 'grouping', 'mode'];

const $ = (id) => document.getElementById(id);
const form = $('editor');
let rows = [];
let configs = {};
let page = 0;
let selected;
let editing;
let chart;

const path = (ip, grouping, action) => `/config/${encodeURIComponent(ip)}${grouping ? `/${encodeURIComponent(grouping)}` : ''}${action ? `/${action}` : ''}`;
const keyOf = (row) => `${row.ip} ${row.grouping}`;

async function load() {
  try {
    const [config, status] = await Promise.all([api('GET', '/config'), api('GET', '/status')]);
    configs = config.ips;
    rows = [];
    for (const [ip, { groupings }] of Object.entries(status.ips)) {
      const named = configs[ip]?.groupings ?? [];
      groupings.forEach((state, index) => rows.push({ ip, grouping: named[index]?.grouping ?? '', config: named[index], state }));
    }
    alertBox('');
  } catch (error) {
    rows = [];
    if (error.status !== 401) alertBox(`Cannot load the schedules: ${error.message}`);
  }
  render();
  const current = rows.find((row) => keyOf(row) === selected);
  if (current) showChart(current);
  else hideChart();
}

function filtered() {
  const words = $('filter').value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows;
  return rows.filter((row) => {
    const text = `${row.ip} ${row.grouping} ${row.state.status} ${row.state.mode}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

function todayVolume(state) {
  const day = state.schedule[state.current_day - 1];
  return day ? day.messages.toLocaleString('en') : '—';
}

function render() {
  const shown = filtered();
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  page = Math.min(page, pages - 1);
  const body = $('rows');
  body.replaceChildren(...shown.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).map((row) => {
    const { state } = row;
    const paused = state.status === 'PAUSED';
    return el('tr', { 'data-ip': row.ip, 'data-grouping': row.grouping, class: keyOf(row) === selected ? 'selected' : undefined },
      el('td', { class: 'mono' }, row.ip),
      el('td', { class: 'mono' }, row.grouping),
      el('td', {}, state.mode),
      el('td', { class: `status status-${state.status}` }, state.status),
      el('td', { class: 'num' }, `${state.current_day} / ${state.schedule.length}`),
      el('td', { class: 'num' }, todayVolume(state)),
      el('td', {}, `${state.start.date} (${state.start.volume.toLocaleString('en')}) → ${state.end.date} (${state.end.volume.toLocaleString('en')})`),
      el('td', {},
        el('button', { type: 'button', onclick: () => { selected = keyOf(row); render(); showChart(row); } }, 'Chart'),
        ' ', el('button', { type: 'button', onclick: () => openEditor(row) }, 'Edit'),
        ' ', el('button', { type: 'button', onclick: () => act(row, paused ? 'resume' : 'pause') }, paused ? 'Resume' : 'Pause'),
        ' ', el('button', { type: 'button', onclick: () => remove(row) }, 'Delete')));
  }));
  $('summary').textContent = `${shown.length.toLocaleString('en')} of ${rows.length.toLocaleString('en')} schedules`;
  $('page').textContent = `Page ${page + 1} of ${pages}`;
  $('prev').disabled = page === 0;
  $('next').disabled = page >= pages - 1;
}

function hideChart() {
  chart?.destroy();
  chart = undefined;
  $('chart-box').classList.add('hidden');
}

function showChart(row) {
  const { state } = row;
  const xs = state.schedule.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
  const ys = state.schedule.map((day) => day.messages);
  const today = state.schedule[state.current_day - 1];
  const box = $('chart-box');
  box.classList.remove('hidden');
  $('chart-title').textContent = `${row.ip} ${row.grouping}: planned messages per day`;
  $('chart-note').textContent = today
    ? `Today is day ${state.current_day} of ${state.schedule.length}: ${today.messages.toLocaleString('en')} messages (${state.status})`
    : state.current_day === 0 ? `Not started: day 1 is ${state.start.date}` : `Finished on ${state.end.date}`;
  const target = $('chart');
  target.dataset.days = String(xs.length);
  target.dataset.today = today ? String(state.current_day) : '';
  chart?.destroy();
  const todayX = today ? xs[state.current_day - 1] : undefined;
  chart = new uPlot({
    width: Math.max(320, target.clientWidth || 800),
    height: 260,
    scales: { x: { time: true } },
    series: [{}, { label: 'Planned messages', stroke: '#2b6cb0', width: 2, fill: 'rgba(43,108,176,0.08)' }],
    axes: [{}, { size: 70 }],
    hooks: {
      draw: [(u) => {
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
      }],
    },
  }, [xs, ys], target);
}

async function act(row, action) {
  try {
    await api('PUT', path(row.ip, row.grouping, action));
    selected = keyOf(row);
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot ${action} ${row.ip} ${row.grouping}: ${error.message}`);
  }
  await load();
}

async function remove(row) {
  const only = (configs[row.ip]?.groupings.length ?? 0) <= 1;
  if (!confirm(only ? `Delete IP ${row.ip} and its only grouping ${row.grouping}?` : `Delete grouping ${row.grouping} of IP ${row.ip}?`)) return;
  try {
    await api('DELETE', only ? path(row.ip) : path(row.ip, row.grouping));
    if (selected === keyOf(row)) selected = undefined;
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot delete ${row.ip} ${row.grouping}: ${error.message}`);
  }
  await load();
}

function showMode() {
  const mode = form.elements.mode.value;
  for (const label of form.querySelectorAll('[data-mode]')) label.classList.toggle('hidden', label.dataset.mode !== mode);
}

function clearErrors() {
  for (const slot of form.querySelectorAll('.field-error')) slot.textContent = '';
}

/** Puts the API's message next to the field it names, or under the form when it names none */
function fieldError(message) {
  const named = /groupings\[\d+\]\.([a-z.]+)/.exec(message)?.[1];
  const field = /IP address|IP "/.test(message) ? 'ip' : FIELDS.find((f) => named === f || named?.startsWith(`${f}.`)) ?? 'form';
  const slot = form.querySelector(`.field-error[data-for="${field}"]`);
  slot.textContent = message;
  form.querySelector(`[name="${{ 'start.date': 'startDate', 'start.volume': 'startVolume', 'end.date': 'endDate', 'end.volume': 'endVolume' }[field] ?? field}"]`)?.focus();
}

function openEditor(row) {
  editing = row;
  clearErrors();
  form.reset();
  form.classList.remove('hidden');
  const f = form.elements;
  f.ip.readOnly = row !== undefined;
  f.grouping.readOnly = row !== undefined;
  if (row) {
    const c = row.config;
    f.ip.value = row.ip;
    f.grouping.value = row.grouping;
    f.mode.value = c.mode;
    f.startDate.value = c.start.date;
    f.startVolume.value = c.start.volume ?? '';
    f.endDate.value = c.end?.date ?? '';
    f.endVolume.value = c.end?.volume ?? '';
    f.schedule.value = (c.schedule ?? []).map((d) => d.messages).join('\n');
    f.paused.checked = c.paused;
  }
  showMode();
  (row ? f.mode : f.ip).focus();
}

function groupingFromForm(previous) {
  const f = form.elements;
  const number = (input) => (input.value.trim() === '' ? undefined : Number(input.value));
  const grouping = {
    grouping: f.grouping.value.trim(),
    mode: f.mode.value,
    start: { date: f.startDate.value || undefined },
    paused: f.paused.checked,
    ...(previous ? { algorithm: previous.algorithm, interval: previous.interval, properties: previous.properties } : {}),
  };
  if (grouping.mode === 'AUTO') {
    grouping.start.volume = number(f.startVolume);
    grouping.end = { date: f.endDate.value || undefined, volume: number(f.endVolume) };
  } else {
    const lines = f.schedule.value.split('\n').map((l) => l.trim()).filter(Boolean);
    grouping.schedule = lines.length === 0 ? undefined : lines.map((line, index) => ({ day: index + 1, messages: Number(line) }));
  }
  return JSON.parse(JSON.stringify(grouping));
}

async function save(event) {
  event.preventDefault();
  clearErrors();
  const ip = form.elements.ip.value.trim();
  if (ip === '') return fieldError('Enter the IP address');
  const edited = editing;
  const grouping = groupingFromForm(edited?.config);
  try {
    if (edited) {
      const groupings = configs[edited.ip].groupings.map((g) => (g.grouping === edited.grouping ? grouping : g));
      await api('PUT', path(edited.ip), { groupings });
    } else {
      const existing = await api('GET', path(ip)).catch((error) => {
        if (error.status === 404) return undefined;
        throw error;
      });
      if (existing?.groupings.some((g) => g.grouping === grouping.grouping)) {
        return fieldError(`Grouping "${grouping.grouping}" of IP "${ip}" exists: use Edit on its row`);
      }
      if (existing) await api('PUT', path(ip), { groupings: [...existing.groupings, grouping] });
      else await api('POST', path(ip), { groupings: [grouping] });
    }
  } catch (error) {
    if (error.status !== 401) fieldError(error.message);
    return;
  }
  form.classList.add('hidden');
  editing = undefined;
  selected = undefined;
  await load();
  const saved = rows.find((row) => row.grouping === grouping.grouping && row.ip === (edited?.ip ?? ip)) ?? rows.find((row) => row.grouping === grouping.grouping);
  if (saved) {
    selected = keyOf(saved);
    const at = filtered().indexOf(saved);
    if (at >= 0) page = Math.floor(at / PAGE_SIZE);
    render();
    showChart(saved);
  }
}

keyBar(load);
form.elements.mode.addEventListener('change', showMode);
form.addEventListener('submit', save);
$('cancel').addEventListener('click', () => { form.classList.add('hidden'); editing = undefined; });
$('new').addEventListener('click', () => openEditor(undefined));
$('reload').addEventListener('click', load);
$('filter').addEventListener('input', () => { page = 0; render(); });
$('prev').addEventListener('click', () => { page -= 1; render(); });
$('next').addEventListener('click', () => { page += 1; render(); });
load();
