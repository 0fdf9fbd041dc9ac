// The classifier page: one batch each to POST /v2/bnac, POST /v1/backoff and POST /normalise, shown per reply with a
// table of class counts, and what decided a reply's classes asked for when its row is pointed at, focused or its
// Explain pressed (`?explain=true` costs the server a computation per reply: not for a thousand rows no one reads);
// a row corrected in place (POST /v1/corrections, its classes from the host's /openapi.json), the corrections answering
// the batch (POST /v1/corrections/match) and the newest in force (GET /v1/corrections?limit=), each removable
// (DELETE /v1/corrections/{id}); and a whole bounce email, dropped or picked, sent as
// message/rfc822 to POST /v1/bounce-email, shown per recipient.
import { alertBox, api, el, keyBar } from './api.js';
import { explainable, number } from './look.js';

const MAX_LINES = 1000;
// Corrections listed at most, newest first: the store may keep thousands, and the page is for looking, not exporting
const MAX_LISTED = 200;

const $ = (id) => document.getElementById(id);

const percent = (p) => (typeof p === 'number' ? `${(p * 100).toFixed(1)} %` : '—');

/** A backoff result's fields or actions as short `name=value` lines */
function described(value) {
  if (value === undefined || value === null) return '—';
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ') || '—';
  if (typeof value === 'object')
    return (
      Object.entries(value)
        .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`)
        .join(', ') || '—'
    );
  return String(value);
}

/** Both models' answers with `?explain=true`, by reply, as asked for so far (a row opened twice asks once) */
let explanations = new Map();

function explain(reply) {
  let pending = explanations.get(reply);
  if (!pending) {
    pending = Promise.all([
      api('POST', '/v2/bnac?explain=true', { messages: [reply] }),
      api('POST', '/v1/backoff?return_probability=true&explain=true', { messages: [reply] }),
    ]).then(([[bnac], [backoff]]) => ({ bnac, backoff }));
    // A failed ask is asked again the next time the row is opened (unless a newer batch has asked meanwhile)
    const asked = pending;
    pending.catch(() => explanations.get(reply) === asked && explanations.delete(reply));
    explanations.set(reply, pending);
  }
  return pending;
}

/**
 * What decided a result's class, from its `explanation` (asked for with `?explain=true`): `{by: "rule", rule}` or
 * `{by: "model", features: [{feature, weight}]}`. A service that explains nothing answers without it: then the page
 * says so rather than guess from the probability.
 */
function decided(result) {
  const explanation = result?.explanation;
  if (explanation?.by === 'correction') {
    return {
      text: 'correction',
      why: `An operator's correction ("${explanation.correction ?? '?'}") answers this reply and every reply with its normalised text: the class is theirs, with probability 1.`,
    };
  }
  if (explanation?.by === 'rule') {
    return {
      text: `rule ${explanation.rule ?? ''}`.trim(),
      why: `The classifier's rule "${explanation.rule ?? '?'}" matched this reply: the probability is the rule's fixed confidence, not a model's estimate.`,
    };
  }
  if (explanation?.by === 'model') {
    const features = Array.isArray(explanation.features) ? explanation.features : [];
    const top = features.map((f) => `"${f.feature}" (${Number(f.weight).toFixed(2)})`).join(', ');
    return { text: 'model', why: `No rule matched: the model decided${top ? `; what weighed most: ${top}` : ''}.` };
  }
  return {
    text: '—',
    why: 'This service did not say whether a rule or the model decided (its answer carries no explanation).',
  };
}

/** A probability, explained by what decided the class */
function probabilityCell(result, model) {
  const { why } = decided(result);
  return el(
    'td',
    { class: 'num' },
    explainable(el('span', {}, percent(result?.probability)), `${model} probability. ${why}`),
  );
}

/**
 * One reply's row. What decided its classes is asked for when the row is pointed at or takes focus (its figures and
 * its Explain button take focus, for keyboards and touch screens); until then its figures say so
 */
function resultRow(reply, i, bnac, backoff, normalised, correction) {
  const models = ['BNAC', 'Backoff'];
  const figures = [bnac, backoff].map((result, k) =>
    explainable(
      el('span', {}, percent(result.probability)),
      `${models[k]} probability. Whether a rule or the model decided is asked for as this row is pointed at or focused.`,
    ),
  );
  const by = el('td', { class: 'decided' });
  let asked = false;
  const open = async () => {
    if (asked) return;
    asked = true;
    let explained;
    try {
      explained = await explain(reply);
    } catch (error) {
      asked = false;
      if (error.status !== 401) alertBox(`Cannot explain reply ${i + 1}: ${error.message}`);
      return;
    }
    [explained.bnac, explained.backoff].forEach((answer, k) =>
      explainable(figures[k], `${models[k]} probability. ${decided(answer).why}`),
    );
    // The Explain button goes: a keyboard on it moves to what it explained, not back to the page's top
    const focused = by.contains(document.activeElement);
    by.replaceChildren(...decidedBoth(explained.bnac, explained.backoff));
    if (focused) by.querySelector('.why').focus();
  };
  by.append(el('button', { type: 'button', 'aria-label': `Explain reply ${i + 1}`, onclick: open }, 'Explain'));
  const row = el(
    'tr',
    { 'data-row': i + 1, onmouseenter: open, onfocusin: open },
    el('td', { class: 'num' }, i + 1),
    el('td', { class: 'mono' }, reply),
    el('td', { class: `mono bnac${bnac.corrected ? ' corrected' : ''}` }, bnac.class),
    el('td', { class: 'num' }, figures[0]),
    el('td', { class: `mono backoff${backoff.corrected ? ' corrected' : ''}` }, backoff.class),
    el('td', { class: 'num' }, figures[1]),
    el('td', { class: 'mono' }, described(backoff.fields)),
    el('td', { class: 'mono' }, described(backoff.actions)),
    el('td', { class: 'mono' }, normalised),
    by,
  );
  row.append(correctionCell(row, reply, i, bnac, backoff, correction));
  return row;
}

/** The host's class lists, from the OpenAPI document it serves (the spec's own): asked once, when first needed */
let classLists;

function classes() {
  if (!classLists) {
    const asked = api('GET', '/openapi.json').then((doc) => ({
      bnac: doc.components.schemas.BnacClass.enum,
      backoff: doc.components.schemas.BackoffClass.enum,
    }));
    asked.catch(() => classLists === asked && (classLists = undefined));
    classLists = asked;
  }
  return classLists;
}

/**
 * A row's last cell: which of its classes an operator's correction gives, with a Remove button, and a Correct button
 * that opens the correction form under the row
 */
function correctionCell(row, reply, i, bnac, backoff, correction) {
  const cell = el('td', { class: 'correction' });
  const models = [bnac.corrected && 'BNAC', backoff.corrected && 'backoff'].filter(Boolean);
  if (models.length > 0) {
    const note = correction?.note ? `: ${correction.note}` : '';
    cell.append(el('span', { class: 'note' }, `Corrected (${models.join(', ')})${note}`), ' ');
    if (correction) cell.append(removeButton(correction, `reply ${i + 1}`), ' ');
  }
  const opener = el(
    'button',
    {
      type: 'button',
      'aria-label': `Correct reply ${i + 1}`,
      onclick: () => openCorrection(row, opener, reply, i, bnac, backoff),
    },
    'Correct',
  );
  cell.append(opener);
  return cell;
}

/**
 * The form under a row: a class for either model or both (the other keeps the classifier's), and a note. Cancel (or
 * Escape) closes it and gives the focus back to the button that opened it
 */
async function openCorrection(row, opener, reply, i, bnac, backoff) {
  const next = row.nextElementSibling;
  if (next?.classList.contains('correct-form')) return next.querySelector('select').focus();
  let lists;
  try {
    lists = await classes();
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot load the class lists: ${error.message}`);
    return;
  }
  const choice = (name, label, list, current) =>
    el(
      'label',
      {},
      `${label} `,
      el(
        'select',
        { name },
        el('option', { value: '' }, `keep ${current}`),
        list.map((c) => el('option', { value: c }, c)),
      ),
    );
  const problem = el('span', { class: 'field-error', role: 'alert' });
  const form = el(
    'form',
    { class: 'correct', 'aria-label': `Correct reply ${i + 1}` },
    choice('bnac', 'BNAC class', lists.bnac, bnac.class),
    ' ',
    choice('backoff', 'Backoff class', lists.backoff, backoff.class),
    ' ',
    el('label', {}, 'Note ', el('input', { name: 'note', maxlength: '1000', size: '30' })),
    ' ',
    el('button', { type: 'submit' }, 'Save correction'),
    ' ',
    el('button', { type: 'button', onclick: () => close() }, 'Cancel'),
    ' ',
    problem,
  );
  const formRow = el('tr', { class: 'correct-form', 'data-for-row': i + 1 }, el('td', { colspan: '11' }, form));
  const close = () => {
    formRow.remove();
    opener.focus();
  };
  form.addEventListener('keydown', (event) => event.key === 'Escape' && close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { message: reply };
    for (const name of ['bnac', 'backoff']) if (form.elements[name].value) body[name] = form.elements[name].value;
    const note = form.elements.note.value.trim();
    if (note) body.note = note;
    if (!body.bnac && !body.backoff) return (problem.textContent = 'Choose a BNAC class, a backoff class or both');
    problem.textContent = '';
    try {
      await api('POST', '/v1/corrections', body);
    } catch (error) {
      problem.textContent = `Cannot save the correction: ${error.message}`;
      return;
    }
    await runBatch(batch, `Correction of reply ${i + 1} saved: it answers every reply with the same normalised text`);
  });
  row.after(formRow);
  form.querySelector('select').focus();
}

/** A correction's Remove button; `what` names it in the button's label and the page's messages */
function removeButton(correction, what) {
  const remove = () => removeCorrection(correction, what);
  return el(
    'button',
    { type: 'button', class: 'danger', 'aria-label': `Remove the correction of ${what}`, onclick: remove },
    'Remove',
  );
}

async function removeCorrection(correction, what) {
  try {
    await api('DELETE', `/v1/corrections/${encodeURIComponent(correction.id)}`);
  } catch (error) {
    if (error.status !== 401) alertBox(`Cannot remove the correction of ${what}: ${error.message}`);
    return;
  }
  await runBatch(batch, `Correction of ${what} removed: the classifier answers it again`);
}

/** The newest corrections in force, newest first, each with its Remove button; or why they cannot be read now */
function correctionsTable({ corrections, total }, unread) {
  const newest = [...corrections].reverse();
  $('corrections').tBodies[0].replaceChildren(
    ...newest.map((c) =>
      el(
        'tr',
        { 'data-correction': c.id },
        el('td', { class: 'mono' }, c.message),
        el('td', { class: 'mono' }, c.bnac ?? '—'),
        el('td', { class: 'mono' }, c.backoff ?? '—'),
        el('td', {}, c.note ?? ''),
        el('td', {}, c.principal),
        el('td', { class: 'mono' }, c.created),
        el('td', {}, removeButton(c, `"${c.message}"`)),
      ),
    ),
  );
  $('corrections-summary').textContent =
    unread ??
    (total > newest.length
      ? `${number(total)} corrections in force; the newest ${number(newest.length)} are listed`
      : `${number(total)} ${total === 1 ? 'correction' : 'corrections'} in force`);
  $('corrections-box').classList.remove('hidden');
}

function countTable(bnac, backoff) {
  const counts = new Map();
  const add = (model, label) => counts.set(`${model}\u0000${label}`, (counts.get(`${model}\u0000${label}`) ?? 0) + 1);
  for (const r of bnac) add('BNAC', r.class);
  for (const r of backoff) add('backoff', r.class);
  const sorted = [...counts].sort(
    (a, b) => a[0].split('\u0000')[0].localeCompare(b[0].split('\u0000')[0]) || b[1] - a[1],
  );
  $('counts').tBodies[0].replaceChildren(
    ...sorted.map(([key, n]) => {
      const [model, label] = key.split('\u0000');
      return el(
        'tr',
        { 'data-model': model, 'data-class': label },
        el('td', {}, model),
        el('td', { class: 'mono' }, label),
        el('td', { class: 'num' }, number(n)),
      );
    }),
  );
  $('counts-box').classList.remove('hidden');
}

/** The batch table's last column: what decided each model's class */
function decidedBoth(bnac, backoff) {
  const [a, b] = [decided(bnac), decided(backoff)];
  return [
    el('span', { 'data-model': 'BNAC' }, 'BNAC: ', explainable(el('span', { class: 'by' }, a.text), a.why)),
    el('br'),
    el('span', { 'data-model': 'backoff' }, 'backoff: ', explainable(el('span', { class: 'by' }, b.text), b.why)),
  ];
}

/** The replies of the batch shown, classified again after a correction changes */
let batch = [];

function classify(event) {
  event.preventDefault();
  alertBox('');
  const replies = $('replies')
    .value.split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (replies.length === 0) return alertBox('Paste at least one bounce reply, one per line');
  if (replies.length > MAX_LINES)
    return alertBox(`Paste at most ${number(MAX_LINES)} replies at once ("${replies.length}" given)`);
  return runBatch(replies);
}

/** Classifies the replies and shows them with the corrections in force; `done` replaces the count in the summary */
async function runBatch(replies, done) {
  batch = replies;
  $('classify').disabled = true;
  $('summary').textContent = `Classifying ${replies.length} replies…`;
  try {
    // Classifying never waits on the corrections store: when it cannot be read, the batch shows without it. The
    // corrections answering the batch come from what the host answers with, so they show then too
    let unread;
    const [bnac, backoff, { normalised }, matched, newest] = await Promise.all([
      api('POST', '/v2/bnac', { messages: replies }),
      api('POST', '/v1/backoff?return_probability=true', { messages: replies }),
      api('POST', '/normalise', { messages: replies }),
      api('POST', '/v1/corrections/match', { messages: replies }),
      api('GET', `/v1/corrections?limit=${MAX_LISTED}`).catch((error) => {
        if (error.status === 401) throw error;
        unread = error.message;
        return { corrections: [], total: 0 };
      }),
    ]);
    // Corrections may have changed since the last batch: explanations are asked for afresh
    explanations = new Map();
    $('results').tBodies[0].replaceChildren(
      ...replies.map((reply, i) =>
        resultRow(reply, i, bnac[i], backoff[i], normalised[i], matched.corrections[i] ?? undefined),
      ),
    );
    $('results-box').classList.remove('hidden');
    countTable(bnac, backoff);
    correctionsTable(newest, unread);
    $('summary').textContent = done ?? `${replies.length} replies classified`;
  } catch (error) {
    $('summary').textContent = '';
    if (error.status !== 401) alertBox(`Cannot classify: ${error.message}`);
  } finally {
    $('classify').disabled = false;
  }
}

/** Sends one email file to /v1/bounce-email and shows what it is and its recipients */
async function classifyEmail(file) {
  alertBox('');
  if (file.size === 0) return alertBox(`Cannot classify the email: "${file.name}" is empty`);
  $('email-file').disabled = true;
  $('email-summary').textContent = `Reading ${file.name}…`;
  try {
    const answer = await api('POST', '/v1/bounce-email', file, { type: 'message/rfc822' });
    $('email-name').textContent = file.name;
    $('email-kind').textContent = answer.kind;
    $('email-format').textContent = answer.format;
    $('email-omitted').textContent = answer.recipients_omitted
      ? `(${number(answer.recipients_omitted)} more recipients neither answered nor classified)`
      : '';
    $('email-recipients').tBodies[0].replaceChildren(
      ...answer.recipients.map((r, i) =>
        el(
          'tr',
          { 'data-recipient': i + 1 },
          el('td', { class: 'mono recipient' }, r.recipient || '—'),
          el('td', { class: 'action' }, r.action ?? '—'),
          el('td', { class: 'mono' }, r.status ?? '—'),
          el('td', { class: 'mono' }, r.reply ?? '—'),
          el('td', { class: 'mono' }, r.remote_mta ?? '—'),
          el('td', { class: 'mono bnac' }, r.bnac?.class ?? '—'),
          probabilityCell(r.bnac, 'BNAC'),
          el('td', { class: 'mono backoff' }, r.backoff?.class ?? '—'),
          el('td', { class: 'mono' }, r.backoff ? described(r.backoff.fields) : '—'),
          el('td', { class: 'mono' }, r.backoff ? described(r.backoff.actions) : '—'),
        ),
      ),
    );
    $('email-result').classList.remove('hidden');
    const n = answer.recipients.length;
    $('email-summary').textContent = `${file.name}: ${n} ${n === 1 ? 'recipient' : 'recipients'}`;
  } catch (error) {
    $('email-summary').textContent = '';
    if (error.status !== 401) alertBox(`Cannot classify the email: ${error.message}`);
  } finally {
    $('email-file').disabled = false;
    $('email-file').value = '';
  }
}

/** The drop zone and its file picker (for keyboards): one email at a time */
function emailInput() {
  const zone = $('drop');
  const take = (files) => {
    if (!files || files.length === 0) return;
    if (files.length > 1) return alertBox(`Drop one email at a time ("${files.length}" given)`);
    classifyEmail(files[0]);
  };
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    take(event.dataTransfer?.files);
  });
  $('email-file').addEventListener('change', (event) => take(event.target.files));
  // A file dropped beside the zone must not replace the page with the file
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => event.preventDefault());
}

keyBar(() => {});
$('batch').addEventListener('submit', classify);
emailInput();
