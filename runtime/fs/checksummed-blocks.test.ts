import * as assert from 'uvu/assert';
import { test } from '../../test/_deadline.ts';
import { encodeBlock, scanBlocks } from '../mod.ts';

const blocks = ['one\ntwo\n', 'ünïcode 邮箱\n', ''].map((payload, at) => encodeBlock(`tag-${at}`, payload));

test('scanBlocks reads back every block encodeBlock wrote, with its tag, payload and offsets', () => {
  const data = Buffer.from(blocks.join(''));
  const read = [...scanBlocks(data)];
  assert.equal(
    read.map((block) => block.kind === 'block' && [block.tag, block.payload.toString()]),
    [
      ['tag-0', 'one\ntwo\n'],
      ['tag-1', 'ünïcode 邮箱\n'],
      ['tag-2', ''],
    ],
  );
  assert.is(read.at(-1)!.end, data.length);
});

test('a torn tail and a corrupt byte are damage, never data; reading goes on with the next whole block', () => {
  const whole = Buffer.from(blocks.join(''));
  const torn = [...scanBlocks(whole.subarray(0, whole.length - 3))];
  assert.equal(
    torn.map((block) => block.kind),
    ['block', 'block', 'damage'],
  );
  const first = Buffer.byteLength(blocks[0]!);
  const corrupt = Buffer.from(whole);
  corrupt[first + 25] = corrupt[first + 25]! ^ 1;
  const read = [...scanBlocks(corrupt)];
  assert.equal(
    read.map((block) => block.kind),
    ['block', 'damage', 'block'],
  );
  assert.equal(read[1], { kind: 'damage', start: first, end: first + Buffer.byteLength(blocks[1]!) });
});

test.run();
