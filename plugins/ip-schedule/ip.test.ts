import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalIp } from './ip.ts';

const SAME: Array<[string, string]> = [
  ['192.0.2.1', '192.0.2.1'],
  ['0.0.0.0', '0.0.0.0'],
  ['255.255.255.255', '255.255.255.255'],
  ['2001:DB8:0::1', '2001:db8::1'],
  ['2001:db8::1', '2001:db8::1'],
  ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
  ['::', '::'],
  ['::1', '::1'],
  ['1::', '1::'],
  ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
  ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
  ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
  ['::ffff:192.0.2.1', '::ffff:192.0.2.1'],
  ['::FFFF:c000:0201', '::ffff:192.0.2.1'],
  ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
  ['fe80:0:0:0:0:0:0:0', 'fe80::'],
];

test('canonicalIp gives one form when an address is written in several ways', () => {
  for (const [input, want] of SAME) assert.is(canonicalIp(input), want, input);
});

const INVALID = [
  '', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.-4', ' 1.2.3.4', '1.2.3.4 ', 'a.b.c.d',
  '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '1::2::3', '12345::1', 'g::1', ':1::2', '1::2:', '1:2:3:4:5:6:7:8::',
  'fe80::1%eth0', '2001:db8::/32', '192.0.2.0/24', '::1.2.3', '1.2.3.4::', 'localhost',
];

test('canonicalIp rejects text when it is not an IP address', () => {
  for (const input of INVALID) assert.is(canonicalIp(input), undefined, JSON.stringify(input));
});

test.run();
