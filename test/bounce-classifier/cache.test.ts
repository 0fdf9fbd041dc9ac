import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../rejects.ts';
import { startService } from './_host.ts';

const GREY = '451 4.7.1 Greylisting in effect, please come back later';
const UNKNOWN = '550 5.1.1 User unknown';

async function withFolder(run: (folder: string) => Promise<void>): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-bc-cache-'));
  try {
    await run(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

test('/v1/cache/stats counts every lookup when messages repeat', async () => {
  const service = await startService({ classifier: 'rules' });
  try {
    await service.post('/v2/bnac', { messages: [GREY, UNKNOWN, GREY] });
    await service.post('/v1/bnac/single', { message: GREY });
    await service.post('/v1/backoff?bypass_cache=true', { messages: [GREY, UNKNOWN] });
    const stats = await (await service.get('/v1/cache/stats')).json();
    assert.is(stats.hit_requests, 1);
    assert.is(stats.miss_requests, 3);
    assert.is(stats.number_of_elements, 2);
    assert.ok(stats.size_in_bytes > 0);
    assert.ok(stats.avg_get_time_ms > 0 && stats.avg_set_time_ms > 0);
    assert.equal([stats.cache_enabled, stats.stats_enabled, stats.timer_enabled], [true, true, true]);
  } finally {
    await service.close();
  }
});

test('/v1/cache/info reports environment settings when they override config', () =>
  withFolder(async (folder) => {
    const env = { SERVICE_BNAC_CACHE: 'off', SERVICE_BNAC_CACHE_FOLDER: folder, SERVICE_BNAC_CACHE_SIZE: '1048576' };
    const service = await startService({ classifier: 'rules', env, config: { cache: { enabled: true, maxSize: 5 } } });
    try {
      assert.equal(await (await service.get('/v1/cache/info')).json(), {
        cache_enabled: false,
        folder,
        max_size: '1048576',
      });
      await service.post('/v1/bnac', { messages: [GREY, GREY] });
      const stats = await (await service.get('/v1/cache/stats')).json();
      assert.equal([stats.cache_enabled, stats.hit_requests, stats.miss_requests], [false, 0, 0]);
    } finally {
      await service.close();
    }
  }));

test('/v1/cache/info reports config settings when the environment is silent', async () => {
  const service = await startService({ classifier: 'rules', config: { cache: { maxSize: 123_456 } } });
  try {
    assert.equal(await (await service.get('/v1/cache/info')).json(), {
      cache_enabled: true,
      folder: service.folder,
      max_size: '123456',
    });
  } finally {
    await service.close();
  }
});

test('service refuses to start when a cache variable is malformed', async () => {
  const cases: Record<string, string>[] = [{ SERVICE_BNAC_CACHE: 'maybe' }, { SERVICE_BNAC_CACHE_SIZE: '64MiB' }];
  for (const env of cases) {
    const [name, value] = Object.entries(env)[0]!;
    const start = async () => (await startService({ classifier: 'rules', env })).close();
    await rejects(start, new RegExp(`${name}.*"${value}"`), `starting with ${name}=${value}`);
  }
});

/** Restarts the service on `folder` and checks it answers `messages` from its cache on disk alone */
async function assertAnsweredFromCache(
  folder: string,
  path: string,
  messages: string[],
  expected: unknown,
): Promise<void> {
  const service = await startService({ classifier: 'rules', folder });
  try {
    assert.equal(await (await service.post(path, { messages })).json(), expected);
    const stats = await (await service.get('/v1/cache/stats')).json();
    assert.equal([stats.hit_requests, stats.miss_requests], [messages.length, 0]);
  } finally {
    await service.close();
  }
}

test('cache answers from disk when the service restarts', () =>
  withFolder(async (folder) => {
    const first = await startService({ classifier: 'rules', folder });
    const before = await (await first.post('/v2/bnac', { messages: [GREY, UNKNOWN] })).json();
    await first.close();
    await assertAnsweredFromCache(folder, '/v2/bnac', [GREY, UNKNOWN], before);
  }));

test('cache skips and logs a corrupt file without a wrong class when the service restarts', () =>
  withFolder(async (folder) => {
    const first = await startService({ classifier: 'rules', folder });
    await first.post('/v1/bnac', { messages: [GREY] });
    await first.close();
    const [name] = (await readdir(folder)).filter((file) => file.endsWith('.log'));
    const path = join(folder, name!);
    await writeFile(path, `${(await readFile(path, 'utf8')).replace('GRAYLISTING', 'VIRUS')}0badf00d [torn`);
    const second = await startService({ classifier: 'rules', folder });
    try {
      assert.equal(await (await second.post('/v1/bnac', { message: GREY })).json(), { class: 'GRAYLISTING' });
      assert.ok(
        second.logs.some((line) => line.includes('Skipped corrupt cache records')),
        second.logs.join('\n'),
      );
    } finally {
      await second.close();
    }
  }));

test('cache does not answer a class the API does not know when its block has a valid checksum', () =>
  withFolder(async (folder) => {
    const first = await startService({ classifier: 'rules', folder });
    await first.post('/v1/bnac', { messages: [GREY] });
    await first.close();
    const [name] = (await readdir(folder)).filter((file) => file.endsWith('.log'));
    const path = join(folder, name!);
    const [header, payload] = (await readFile(path, 'utf8')).split(/\n(.*)/s) as [string, string];
    const forged = payload.replace('GRAYLISTING', 'NOT_A_CLASS');
    const version = header.split(' ').slice(3).join(' ');
    await writeFile(
      path,
      `B ${crc32(forged).toString(16).padStart(8, '0')} ${Buffer.byteLength(forged)} ${version}\n${forged}`,
    );
    const second = await startService({ classifier: 'rules', folder });
    try {
      assert.equal(await (await second.post('/v1/bnac', { message: GREY })).json(), { class: 'GRAYLISTING' });
      assert.ok(
        second.logs.some((line) => /Skipped cached results with a model or class/.test(line)),
        second.logs.join('\n'),
      );
    } finally {
      await second.close();
    }
  }));

test('service starts and caches when a cache segment is a folder', () =>
  withFolder(async (folder) => {
    await mkdir(join(folder, 'cache-00000001.log'));
    const first = await startService({ classifier: 'rules', folder });
    await first.post('/v1/bnac', { messages: [GREY] });
    await first.close();
    assert.ok(
      first.logs.some((line) => line.includes('Skipped unreadable cache segment')),
      first.logs.join('\n'),
    );
    await assertAnsweredFromCache(folder, '/v1/bnac', [GREY], [{ class: 'GRAYLISTING' }]);
  }));

test('service starts with a memory cache when the cache folder is a file', () =>
  withFolder(async (parent) => {
    const folder = join(parent, 'cache');
    await writeFile(folder, 'operator data');
    const service = await startService({ classifier: 'rules', folder });
    try {
      await service.post('/v1/bnac', { messages: [GREY] });
      assert.equal(await (await service.post('/v1/bnac', { message: GREY })).json(), { class: 'GRAYLISTING' });
      const stats = await (await service.get('/v1/cache/stats')).json();
      assert.equal([stats.hit_requests, stats.miss_requests], [1, 1]);
      assert.ok(
        service.logs.some((line) => line.includes('Cannot use cache folder')),
        service.logs.join('\n'),
      );
    } finally {
      await service.close();
    }
    assert.is(await readFile(folder, 'utf8'), 'operator data');
  }));

test.run();
