import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventEmitter } from 'node:events';
import * as ws from 'ws';
import { feedObject, type FeedObject } from './protocol.ts';
import { REPLAY_CHUNK_BYTES, Replay } from './replay.ts';

const policy = (id: string, tag = 'Day_1') =>
  feedObject('policy', {
    id,
    type: 'WARMUP',
    fields: ['LOCALIP', 'GROUPING'],
    if: { localip: '192.0.2.1', grouping: id },
    then: { tag },
  });
/** Objects as the state keeps them: a map per IP, by `<kind>:<id>` */
const mapOf = (...objects: FeedObject[]) => new Map(objects.map((o) => [`${o.kind}:${o.id}`, o]));
const suspend = (id: string) => feedObject('suspend', { id, type: 'WARMUP', localip: '192.0.2.1', tag: 'Hold' });

/** ws's own frame parser, which its types do not declare */
const { Receiver } = ws as unknown as {
  Receiver: new (options: { isServer: boolean }) => EventEmitter & { write(chunk: Buffer): void };
};

/** Every chunk of `replay`, each read by ws's own parser on its own: answers the messages per chunk */
function read(replay: Replay): { chunks: Buffer[]; messages: unknown[][] } {
  const chunks: Buffer[] = [];
  for (let chunk = replay.chunk(0); chunk; chunk = replay.chunk(chunks.length)) chunks.push(chunk);
  const messages = chunks.map((chunk) => {
    const received: unknown[] = [];
    // A client's receiver: the server's frames are not masked
    const receiver = new Receiver({ isServer: false });
    receiver.on('message', (data: Buffer, binary: boolean) =>
      received.push(binary ? 'binary' : JSON.parse(data.toString())),
    );
    receiver.on('error', (error: Error) => received.push(`error: ${error.message}`));
    receiver.write(chunk);
    return received;
  });
  return { chunks, messages };
}

test('a replay is VERSION, a CREATE per object in the order given, SYNCED: whole text frames in chunks of 64 KiB at most', () => {
  const policies = Array.from({ length: 2000 }, (_, i) => policy(`warmup:192.0.2.1:&g${String(i).padStart(4, '0')}`));
  const suspends = [suspend('warmup-hold:192.0.2.2')];
  const { chunks, messages } = read(
    new Replay([mapOf(...policies.slice(0, 1000)), mapOf(...suspends), mapOf(...policies.slice(1000))]),
  );
  assert.ok(chunks.length > 2, `${chunks.length} chunks`);
  for (const chunk of chunks) assert.ok(chunk.length <= REPLAY_CHUNK_BYTES, `a chunk of ${chunk.length} bytes`);
  assert.equal(messages.flat(), [
    { action: 'VERSION', version: 1 },
    ...policies.slice(0, 1000).map((p) => ({ action: 'CREATE', policy: p.value })),
    { action: 'CREATE', suspend: suspends[0]!.value },
    ...policies.slice(1000).map((p) => ({ action: 'CREATE', policy: p.value })),
    { action: 'SYNCED' },
  ]);
});

test('a frame larger than a chunk gets a chunk of its own, with the 64-bit length', () => {
  const large = policy('warmup:192.0.2.1:&large', 'x'.repeat(100_000));
  const { chunks, messages } = read(
    new Replay([mapOf(policy('warmup:192.0.2.1:&a'), large, policy('warmup:192.0.2.1:&b'))]),
  );
  assert.equal(
    messages.map((m) => m.length),
    [2, 1, 2],
  );
  assert.is(chunks[1]![1], 127);
  assert.equal(messages[1]![0], { action: 'CREATE', policy: large.value });
});

test('an empty state replays VERSION and SYNCED; chunks are encoded once, on first use, and are the same for every reader', () => {
  assert.equal(read(new Replay([mapOf(), mapOf()])).messages, [
    [{ action: 'VERSION', version: 1 }, { action: 'SYNCED' }],
  ]);
  const replay = new Replay([mapOf(...Array.from({ length: 1000 }, (_, i) => policy(`p${i}`)))]);
  const first = replay.chunk(1);
  assert.ok(first);
  assert.is(replay.chunk(1), first, 'the same buffer');
  assert.is(replay.chunk(99), undefined);
  assert.is(replay.creates, 1000);
});

test.run();
