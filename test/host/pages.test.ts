/** Pages a plugin offers (`PluginInstance.pages`, plugin API 1.2): served below their prefix, nothing outside their folder */
import { request } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost } from '../../runtime/mod.ts';
import { rejects } from '../rejects.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const quiet = createLogger({ service: 'test', write: () => {} });
const start = (plugins: unknown[], extra: Record<string, unknown> = {}) =>
  startHost(document(plugins, extra), { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} });

/** node:http sends the path as written: fetch would resolve the dot segments before sending */
function raw(
  base: string,
  path: string,
  method = 'GET',
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request(`${base}/`, { method, path }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res
        .on('data', (d) => (text += d))
        .on('end', () => done({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', fail).end();
  });
}

test('the ui plugin serves its pages and uPlot at /ui/, without a key, and nothing outside its folders', async () => {
  const host = await start([{ id: 'ip-schedule', config: { authentication: { apikeys: ['k1'] } } }, { id: 'ui' }]);
  try {
    const base = host.urls[0]!;
    const redirect = await raw(base, '/ui');
    assert.equal([redirect.status, redirect.headers.location], [302, '/ui/']);
    const index = await raw(base, '/ui/');
    assert.is(index.status, 200, 'pages need no key: they hold no data');
    assert.match(index.text, /href="warmup.html"/);
    assert.match(index.text, /href="classifier.html"/);
    assert.match(String(index.headers['content-security-policy']), /default-src 'self'/);
    const uplot = await raw(base, '/ui/vendor/uplot/uPlot.esm.js');
    assert.equal([uplot.status, uplot.headers['content-type']], [200, 'text/javascript; charset=utf-8']);
    for (const path of [
      '/ui/../package.json',
      '/ui/%2e%2e/package.json',
      '/ui/vendor/uplot/..%2f..%2f..%2fpackage.json',
      '/ui/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/ui/%00',
      '/ui/%E0%A4%A',
    ]) {
      const answer = await raw(base, path);
      assert.ok([400, 404].includes(answer.status), `${path} answered ${answer.status}`);
      assert.not.match(answer.text, /"name": "capstan"/, path);
      assert.match(JSON.parse(answer.text).error, /^(Invalid page path|No page|No route for) "/, path);
    }
    const post = await raw(base, '/ui/index.html', 'POST');
    assert.equal(
      [post.status, post.headers.allow, JSON.parse(post.text)],
      [405, 'GET, HEAD, OPTIONS', { error: 'Method "POST" is not allowed on "/ui/index.html"' }],
    );
    assert.is((await raw(base, '/ui/missing.js')).status, 404);
  } finally {
    await host.close();
  }
});

test('pages are off when the ui plugin is configured off, or not listed', async () => {
  for (const plugins of [[{ id: 'ui', config: { enabled: false } }], []]) {
    const host = await start(plugins);
    try {
      const answer = await raw(host.urls[0]!, '/ui/');
      assert.equal([answer.status, JSON.parse(answer.text)], [404, { error: 'No route for "GET /ui/"' }]);
    } finally {
      await host.close();
    }
  }
});

test('a pages prefix used twice or over an API route stops start-up with a message naming both', async () => {
  let made = 0;
  // A folder per plugin: an imported module stays cached by its path
  const pages = (prefix: string) =>
    writePlugin(dir, `pages-${made++}`, {
      'mod.ts': `
import { definePlugin, Type } from '@capstan';
export default definePlugin({ id: 'p', kind: 'api', apiVersion: '^1.2.0', config: Type.Object({}),
  setup: () => ({ pages: [{ prefix: '${prefix}', dir: '${dir}' }] }) });
`,
    });
  await rejects(
    start([{ id: 'ui' }, { id: 'mine', path: pages('/ui/') }]),
    /Cannot serve pages of plugin "mine" at "\/ui\/" on server "api": plugin "ui" serves pages there/,
  );
  await rejects(
    start([{ id: 'ip-schedule' }, { id: 'mine', path: pages('/config/') }]),
    /Cannot serve pages of plugin "mine" at "\/config\/" on server "api": route "GET \/config" of API "ip-schedule" is below it/,
  );
  await rejects(start([{ id: 'mine', path: pages('/healthz/') }]), /route "GET \/healthz" of API "host"/);
  await rejects(
    start([{ id: 'mine', path: pages('ui') }]),
    /a prefix is lower case path segments starting and ending with "\/"/,
  );
});

test.run();
