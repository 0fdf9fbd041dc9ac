import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalIp, cidrMatcher, ipNumber } from './ip.ts';

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
  '',
  '1.2.3',
  '1.2.3.4.5',
  '256.1.1.1',
  '01.2.3.4',
  '1.2.3.-4',
  ' 1.2.3.4',
  '1.2.3.4 ',
  'a.b.c.d',
  '1:2:3:4:5:6:7',
  '1:2:3:4:5:6:7:8:9',
  '1::2::3',
  '12345::1',
  'g::1',
  ':1::2',
  '1::2:',
  '1:2:3:4:5:6:7:8::',
  'fe80::1%eth0',
  '2001:db8::/32',
  '192.0.2.0/24',
  '::1.2.3',
  '1.2.3.4::',
  'localhost',
];

test('canonicalIp rejects text when it is not an IP address', () => {
  for (const input of INVALID) assert.is(canonicalIp(input), undefined, JSON.stringify(input));
});

test('ipNumber: IPv4 in 32 bits, IPv6 (and IPv4-mapped) in 128, nothing for other text', () => {
  assert.equal(ipNumber('10.0.0.2'), { v6: false, value: 0x0a000002n });
  assert.equal(ipNumber('2001:db8::1'), { v6: true, value: 0x20010db8000000000000000000000001n });
  assert.equal(ipNumber('::ffff:192.0.2.1'), { v6: true, value: 0xffffc0000201n });
  assert.is(ipNumber('10.0.0.256'), undefined);
  assert.is(ipNumber('gmail'), undefined);
});

test('cidrMatcher: a prefix of either family matches its own family only; bad prefixes are none', () => {
  const v4 = cidrMatcher('10.0.0.0/30')!;
  assert.equal(
    ['10.0.0.0', '10.0.0.3', '10.0.0.4', '9.255.255.255', '::ffff:10.0.0.1'].map((ip) => v4(ipNumber(ip)!)),
    [true, true, false, false, false],
  );
  const v6 = cidrMatcher('2001:db8::/32')!;
  assert.equal(
    ['2001:db8::1', '2001:db8:ffff::', '2001:db9::', '10.0.0.1'].map((ip) => v6(ipNumber(ip)!)),
    [true, true, false, false],
  );
  assert.ok(cidrMatcher('0.0.0.0/0')!(ipNumber('203.0.113.9')!));
  for (const bad of ['10.0.0.0/33', '2001:db8::/129', '10.0.0/8', '10.0.0.0', '10.0.0.0/', 'a/8'])
    assert.is(cidrMatcher(bad), undefined, bad);
});

test.run();
