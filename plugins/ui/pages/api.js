// The pages' one way to the HTTP API: the same endpoints and API key (header X-API-Key) as any client. The key is
// kept in sessionStorage: it lives as long as the browser tab, and is never written anywhere else.
const KEY_STORAGE = 'capstan.apiKey';

/** An error answer of the API: its status and the `error` message it sent */
class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const refusedListeners = [];

function storedKey() {
  return sessionStorage.getItem(KEY_STORAGE) ?? '';
}

/**
 * Sends one request; resolves with the parsed JSON answer (or, with `options.as: 'blob'`, the body as a Blob, such as
 * a CSV download), rejects with an ApiError carrying the API's message. The body is sent as JSON, or as it is (a File
 * or Blob) with `options.type` as its content type
 */
export async function api(method, path, body, options = {}) {
  const headers = { accept: options.as === 'blob' ? '*/*' : 'application/json' };
  const raw = options.type !== undefined;
  if (body !== undefined) headers['content-type'] = raw ? options.type : 'application/json';
  const key = storedKey();
  if (key !== '') headers['x-api-key'] = key;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, `The service does not answer: ${error.message}`);
  }
  if (response.ok && options.as === 'blob') return response.blob();
  const text = await response.text();
  let data;
  try {
    data = text === '' ? undefined : JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const message = typeof data?.error === 'string' ? data.error : `The service answered HTTP ${response.status}`;
    if (response.status === 401) for (const listener of refusedListeners) listener(message);
    throw new ApiError(response.status, message);
  }
  return data;
}

/**
 * Adds the key form (`#key-form`) to the page's `<header>` and wires it to the alert (`#alert`): the key is asked
 * once, and a refused key says so plainly. `onKey` runs after a key is saved, to load the page again. Built here, so
 * that every page gets the same form from one call.
 */
export function keyBar(onKey) {
  const state = el('span', { id: 'key-state', class: 'note' });
  const input = el('input', {
    id: 'key-input',
    type: 'password',
    autocomplete: 'off',
    placeholder: 'API key',
    'aria-label': 'API key',
  });
  const form = el('form', { id: 'key-form', class: 'key' }, state, input, el('button', { type: 'submit' }, 'Use key'));
  document.querySelector('header').append(form);
  const show = () => {
    state.textContent = storedKey() === '' ? 'No API key' : 'API key kept for this session';
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY_STORAGE, input.value.trim());
    input.value = '';
    alertBox('');
    show();
    onKey();
  });
  refusedListeners.push((message) => {
    const hadKey = storedKey() !== '';
    alertBox(
      hadKey
        ? `The API key was refused (${message}). Enter the right key above.`
        : `This service needs an API key (${message}). Enter it above.`,
    );
    input.focus();
  });
  show();
}

/** Shows `message` in the page's alert box, or clears it */
export function alertBox(message) {
  const box = document.getElementById('alert');
  box.textContent = message;
  box.setAttribute('role', message === '' ? 'status' : 'alert');
}

/** Creates an element with attributes and children (strings become text, never HTML) */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat())
    if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
  return node;
}
