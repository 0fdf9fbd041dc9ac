import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatPath } from '../../runtime/config/path.ts';
import { validateDocument } from '../../runtime/config/validate.ts';

type Row = {
  given: string;
  document: Record<string, unknown>;
  errors?: string[];
  warnings?: string[];
  serve?: boolean;
};

const v = { version: '6.10' };
const smtp = (listeners: unknown[], id = 'mx'): Record<string, unknown> => ({ id, listeners });
const lines = (issues: { path: readonly (string | number)[]; message: string }[]): string[] =>
  issues.map((issue) => `${formatPath(issue.path)} ${issue.message}`);

// Each row is what an operator wrote and the exact lines they should read back.
const rows: Row[] = [
  {
    given: 'an unknown property in a server',
    document: { ...v, servers: [{ ...smtp([{ port: 25 }]), listner: [] }] },
    errors: [
      'servers[0].listner unknown property of "servers[0]": did you mean "listeners"; known properties are "id", "type", "listeners", "proxyprotocol", "threads", "scripting"',
    ],
  },
  {
    given: 'an unknown top-level property',
    document: { ...v, sever: [] },
    errors: [
      'sever unknown property of the top level: did you mean "servers"; known ' +
        'properties are "version", "servers", "queues", "pki", "plugins", "threads", ' +
        '"scripting", "resolver", "spool", "environment", "cluster", "monitor"',
    ],
  },
  {
    given: 'an unknown property in a listener form',
    document: { ...v, servers: [smtp([{ path: '/run/mx.sock', mode: '0660' }])] },
    errors: [
      'servers[0].listeners[0].mode unknown property of the Unix socket listener "servers[0].listeners[0]": known properties are "path", "id", "owner", "group", "chmod", "backlog"',
    ],
  },
  {
    given: 'version written unquoted as 6.10',
    document: { version: 6.1 },
    errors: [
      'version must be "6.10" in quotes: found the number 6.1, which is how YAML reads an unquoted 6.10; write version: "6.10"',
    ],
  },
  {
    given: 'an older version',
    document: { version: '5.8' },
    errors: ['version must be "6.10", the only supported configuration version: found "5.8"'],
  },
  {
    given: 'a version that is another number',
    document: { version: 5.8 },
    errors: ['version must be the string "6.10" in quotes: found the number 5.8'],
  },
  {
    given: 'a listener with an address and no port',
    document: { ...v, servers: [smtp([{ address: '127.0.0.1' }, { port: 2525 }])] },
    errors: ['servers[0].listeners[0] has "address" but no "port": a TCP listener needs "port"'],
  },
  {
    given: 'a listener with both port and path',
    document: { ...v, servers: [smtp([{ port: 25, path: '/run/mx.sock' }])] },
    errors: ['servers[0].listeners[0] takes either "port" or "path", not both'],
  },
  {
    given: 'a control socket with both port and path',
    document: { ...v, environment: { controlsocket: { port: 5000, path: '/run/mta.ctl' } } },
    errors: [
      'environment.controlsocket.path belongs to the Unix control socket: "environment.controlsocket" takes either "path" or "port", not both',
    ],
  },
  {
    given: 'a spool with both path and paths',
    document: { ...v, spool: { path: '/a', paths: [{ path: '/b' }] } },
    errors: ['spool.path "spool" takes either "path" or "paths", not both'],
  },
  {
    given: 'a plugin server with an empty listener list',
    document: { ...v, servers: [{ id: 'p', type: 'plugin', listeners: [] }] },
    errors: ['servers[0].listeners a server of type "plugin" takes no "listeners"'],
  },
  {
    given: 'the parts of real documents the format does not show',
    document: {
      ...v,
      environment: {
        uuid: { version: 4 },
        licensekey: '/license.key',
        appconf: '/etc/mta/app.yaml',
        deliveryconf: '/etc/mta/d.yaml',
        sockets: { httprd: { path: '/run/h.sock' } },
      },
      cluster: { address: 'clusterd', port: 2530, startup: { hosts: 1 } },
      monitor: { listener: { port: 8080 } },
    },
  },
  {
    given: 'a uuid version that is not a number',
    document: { ...v, environment: { uuid: { version: 'v4' } } },
    errors: ['environment.uuid.version must be an integer'],
  },
  {
    given: 'a property of a partly known object',
    document: { ...v, cluster: { adress: 'clusterd' } },
    warnings: [
      'cluster.adress is not known to Capstan, so it is not checked: the format does not show all of "cluster"; did you mean "address"',
    ],
  },
  {
    given: 'a rate of "0"',
    document: { ...v, spool: { loader: { rate: '0/60' } } },
    warnings: [
      'spool.loader.rate is a rate of 0 messages: the format does not say whether that stops the work or means no limit; write the rate you mean, or leave it out',
    ],
  },
  {
    given: 'a negative facility, a fractional mask and an EDNS size of -1',
    document: { ...v, environment: { syslog: { facility: -3, mask: 0.5 } }, resolver: { ednsbuffersize: -1 } },
    warnings: [
      'environment.syslog.mask has a fraction: a mask of log levels is a whole number',
      'environment.syslog.facility is a negative facility number: write a facility name such as "mail" or its number',
      'resolver.ednsbuffersize is negative: an EDNS buffer size is a number of bytes (default 1280), and the format does not say what a negative size does',
    ],
  },
  {
    given: 'two servers on the same address and port',
    document: {
      ...v,
      servers: [
        smtp([{ port: 25, address: '192.0.2.1' }], 'a'),
        smtp([{ port: 25, address: '192.0.2.1' }], 'b'),
        smtp([{ port: 25, address: '192.0.2.2' }], 'c'),
      ],
    },
    warnings: [
      'servers[1].listeners[0] binds "192.0.2.1" port 25, as "servers[0].listeners[0]" does: only one of the two servers can listen there',
    ],
  },
  {
    given: 'an https server without a key, for config check',
    document: { ...v, servers: [{ id: 'web', type: 'https' }] },
    warnings: [
      'servers[0] has no key in "pki.private": fine for the MTA, which takes the ' +
        'certificate from its running configuration, but "capstan serve" needs a ' +
        'key in "pki.private" with id "web", or a single key: there is none',
    ],
  },
  {
    given: 'an https server without a key, for serve',
    document: { ...v, servers: [{ id: 'web', type: 'https' }] },
    serve: true,
    errors: [
      'servers[0] a server of type "https" needs a key in "pki.private" with id "web", or a single key: there is none',
    ],
  },
];

for (const row of rows) {
  test(`validator words its findings as wanted when given ${row.given}`, () => {
    const { errors, warnings } = validateDocument(row.document, { serve: row.serve });
    assert.equal(lines(errors), row.errors ?? []);
    assert.equal(lines(warnings).sort(), [...(row.warnings ?? [])].sort());
  });
}

test.run();
