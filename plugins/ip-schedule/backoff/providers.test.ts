import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROVIDER_TABLE, PROVIDERS } from '../../../generated/data/ip-schedule.ts';
import { Providers } from './providers.ts';

const providers = new Providers();

test('real MX host names map to their provider by the longest suffix', () => {
  const cases: [string, string][] = [
    ['gmail-smtp-in.l.google.com', 'google'],
    ['alt4.aspmx.l.google.com.', 'google'],
    ['aspmx2.googlemail.com', 'google'],
    ['hotmail-com.olc.protection.outlook.com', 'microsoft'],
    ['contoso-com.mail.protection.outlook.com', 'microsoft-365'],
    ['mta7.am0.yahoodns.net', 'yahoo'],
    ['mx-aol.mail.gm0.yahoodns.net', 'yahoo'],
    ['mx01.mail.icloud.com', 'apple'],
    ['mx00.gmx.net', 'united-internet'],
    ['mx-ha03.web.de', 'united-internet'],
    ['mx00.kundenserver.de', 'united-internet'],
    ['smtp-in.orange.fr', 'orange'],
    ['mx2c1.comcast.net', 'comcast'],
    ['ff-ip4-mx-vip1.prodigy.net', 'att'],
    ['mx.yandex.ru', 'yandex'],
    ['mxs.mail.ru', 'mailru'],
    ['mx3.qq.com', 'tencent'],
    ['163mx01.mxmail.netease.com', 'netease'],
    ['mx.zoho.eu', 'zoho'],
    ['mailsec.protonmail.ch', 'proton'],
    ['in1-smtp.messagingengine.com', 'fastmail'],
    ['mx1.free.fr', 'free'],
    ['smtp-in.libero.it', 'italiaonline'],
    ['mx00.t-online.de', 't-online'],
    ['mx1.seznam.cz', 'seznam'],
    ['eu-smtp-inbound-1.mimecast.com', 'mimecast'],
    ['mx0a-00123401.pphosted.com', 'proofpoint'],
    ['GMAIL-SMTP-IN.L.GOOGLE.COM', 'google'],
  ];
  assert.equal(
    cases.map(([mx]) => providers.of(mx, undefined)),
    cases.map(([, id]) => id),
  );
});

test('without a known MX the recipient domain decides; a suffix matches whole labels only', () => {
  assert.is(providers.of(undefined, 'gmail.com'), 'google');
  assert.is(providers.of('mx.example.net', 'hotmail.co.uk'), 'microsoft', 'an unknown MX gives way to a known domain');
  assert.is(
    providers.of('aspmx.l.google.com', 'example.com'),
    'google',
    'the MX before the domain: a Workspace customer',
  );
  assert.is(providers.of('notgoogle.com', undefined), 'notgoogle.com', 'not a label suffix of google.com');
});

test('an unknown provider is the registrable domain of its MX host, else of its recipient domain', () => {
  assert.is(providers.of('mx1.mail.example.co.uk', 'example.co.uk'), 'example.co.uk');
  assert.is(providers.of('mail.b.example', undefined), 'b.example');
  assert.is(providers.of(undefined, 'Sub.Example.ORG'), 'example.org');
  assert.is(providers.of(undefined, undefined), 'unknown');
});

test('config rows add providers and take suffixes and domains from built-in rows', () => {
  const own = new Providers({
    acme: { mx: ['mx.acme.example'], domains: ['acme.example'] },
    google: { mx: ['google.com'], domains: [] },
  });
  assert.is(own.of('in.mx.acme.example', undefined), 'acme');
  assert.is(own.of(undefined, 'acme.example'), 'acme');
  assert.is(own.of(undefined, 'gmail.com'), 'gmail.com', 'the configured google row lists no domains');
  assert.ok(own.ids.has('acme') && own.ids.has('yahoo'));
});

test('the table has at least 20 providers, each with a public source, and no suffix or domain twice', () => {
  assert.ok(PROVIDERS.length >= 20);
  const seen = new Map<string, string>();
  for (const id of PROVIDERS) {
    const row = PROVIDER_TABLE[id] as { mx: readonly string[]; domains: readonly string[]; source: string };
    assert.match(row.source, /^https?:\/\//, id);
    assert.ok(row.mx.length > 0, `${id} has MX suffixes`);
    for (const name of [...row.mx.map((m) => `mx ${m}`), ...row.domains.map((d) => `domain ${d}`)]) {
      assert.is(seen.get(name), undefined, `${name} of ${id}`);
      seen.set(name, id);
    }
  }
});

test.run();
