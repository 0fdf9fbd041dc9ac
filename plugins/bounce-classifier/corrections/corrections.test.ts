import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AuditEntry, Logger } from '../../../runtime/mod.ts';
import { Corrections } from './corrections.ts';
import { openFileStore } from './file-store.ts';

const REPLY = '550 5.1.1 <anna@example.org>: user unknown';

let folder = '';
test.before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'capstan-corrections-'));
});
test.after(() => rm(folder, { recursive: true, force: true }));

test('a change of this host re-reads the store once, and is looked up as soon as it is answered', async () => {
  const store = await openFileStore(folder);
  let reads = 0;
  const counted = { ...store, list: () => (reads++, store.list()) };
  const corrections = await Corrections.open({
    store: counted,
    normalise: (message) => message.toLowerCase(),
    maxCount: 10,
    audit: { record: (_change, commit) => commit({} as AuditEntry) },
    auditSink: undefined,
    log: { warn: () => undefined } as unknown as Logger,
  });
  try {
    assert.is(reads, 1, 'read once at open');
    const created = await corrections.create({ message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' }, undefined);
    assert.equal(corrections.lookup('bnac', REPLY.toLowerCase()), { label: 'RECIPIENT_NOT_FOUND', id: created.id });
    assert.is(reads, 2, 'one read for the create');
    assert.equal(await corrections.delete(created.id, undefined), created);
    assert.is(corrections.lookup('bnac', REPLY.toLowerCase()), undefined);
    assert.is(reads, 3, 'one read for the delete');
  } finally {
    await corrections.close();
  }
});

test.run();
