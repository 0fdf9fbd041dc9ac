/**
 * Startup configuration validation: Capstan's validator (typebox `Compile`) against ajv 8
 * compiled from the same schema in the same run, plus the CLI's cold start.
 * Run: npx tsx bench/config-validate.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { documentValidator, startupConfigSchema } from '../runtime/config/schema.ts';

/** A large, realistic document: 40 servers, 120 listeners, 60 plugins, 20 pools, 16 spool paths. */
function largeDocument(): object {
  const scripts = Array.from({ length: 10 }, (_, i) => ({
    id: `scripts-${i}`,
    count: 16,
    priority: 0,
    stacksize: '2MiB',
  }));
  const events = Array.from({ length: 10 }, (_, i) => ({ id: `events-${i}`, count: 4, priority: -5 }));
  const servers = Array.from({ length: 40 }, (_, i) => ({
    id: `mx-${i}`,
    listeners: [
      { port: 25, address: `192.0.2.${i + 1}`, backlog: 1024 },
      { port: 587, address: `2001:db8::${(i + 1).toString(16)}` },
      { path: `/run/smtpd/mx-${i}.sock`, owner: 'mail', group: 'mail', chmod: '0660' },
    ],
    proxyprotocol: ['10.0.0.0/8', '172.16.0.0/12', '::ffff:10.0.0.0/104'],
    threads: {
      event: { id: `events-${i % 10}` },
      script: { id: `scripts-${i % 10}`, hooks: { connect: 'scripts-0', eod: `scripts-${(i + 1) % 10}` } },
    },
    scripting: { concurrency: 200, stacksize: '4MiB' },
  }));
  servers.push(
    { id: 'web', type: 'https', listeners: [{ port: 443 }] } as never,
    { id: 'relay', type: 'plugin', threads: { script: 8 } } as never,
  );
  return {
    version: '6.10',
    servers,
    queues: {
      threads: {
        event: 8,
        script: { id: 'scripts-1', hooks: { predelivery: 'scripts-2' } },
        pickup: { count: 2, priority: 0 },
      },
      scripting: { concurrency: 50 },
    },
    pki: {
      private: [
        { id: 'web', privatekey: { path: '/etc/service/web.key' }, certificate: { path: '/etc/service/web.crt' } },
      ],
    },
    plugins: Array.from({ length: 60 }, (_, i) => ({
      id: `plugin-${i}`,
      path: `/opt/service/plugins/p${i}.so`,
      config: { level: i, tags: ['a', 'b'] },
    })),
    threads: { scripts, events },
    scripting: { ffi: false, cache: { scope: 'config' } },
    resolver: { threads: { event: 2 }, ednsbuffersize: 1280 },
    spool: {
      paths: Array.from({ length: 16 }, (_, i) => ({ path: `/var/spool/service/q${i}`, write: i % 4 !== 0 })),
      minfree: { inodes: 10000, bytes: '10GiB' },
      loader: { threads: { count: 32 }, rate: '1000/1', corrupt: 'rename' },
      update: { threads: { count: 16 }, background: { threads: { count: 2 }, rate: '100/60' } },
    },
    environment: {
      syslog: { ident: 'smtpd', facility: 'mail' },
      controlsocket: { path: '/run/smtpd.ctl', chmod: '0660' },
      umask: '0027',
    },
  };
}

function throughput(check: (value: unknown) => boolean, value: unknown): number {
  for (let i = 0; i < 2_000; i++) if (!check(value)) throw new Error('the benchmark document must be valid');
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < 500) {
      for (let i = 0; i < 50; i++) check(value);
      n += 50;
    }
    rounds.push(n / ((performance.now() - start) / 1000));
  }
  return rounds.sort((a, b) => a - b)[2];
}

const document = largeDocument();
const typebox = documentValidator();
const ajv = new Ajv2020({ strict: false }).compile(startupConfigSchema);
const ours = throughput((value) => typebox.Check(value), document);
const theirs = throughput((value) => ajv(value) as boolean, document);
const size = JSON.stringify(document).length;
console.log(`document: ${size} bytes of JSON`);
console.log(`capstan (typebox Compile): ${ours.toFixed(0)} documents/s`);
console.log(`ajv 8 (2020, same schema): ${theirs.toFixed(0)} documents/s`);
console.log(`ratio capstan / ajv: ${(ours / theirs).toFixed(2)} (goal >= 1.0)`);

const file = join(mkdtempSync(join(tmpdir(), 'capstan-bench-')), 'startup.json');
writeFileSync(file, JSON.stringify(document, null, 2));
const root = fileURLToPath(new URL('..', import.meta.url));
const times: number[] = [];
for (let run = 0; run < 7; run++) {
  const start = performance.now();
  execFileSync(process.execPath, ['runtime/cli/capstan.js', 'config', 'check', file], { cwd: root, stdio: 'ignore' });
  times.push(performance.now() - start);
}
const median = times.sort((a, b) => a - b)[3];
console.log(
  `cli cold start, config check of that file: median ${(median / 1000).toFixed(3)} s over 7 runs (goal < 0.5 s)`,
);
