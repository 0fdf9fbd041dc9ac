import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withScheduleHost } from './_host.ts';

test('every endpoint answers 401 with a JSON error when API keys are configured and the key is missing or wrong', async () => {
  await withScheduleHost({ config: { authentication: { apikeys: ['k1', 'k2'] } } }, async (host) => {
    const requests = [
      ['GET', '/config'],
      ['GET', '/status'],
      ['GET', '/status/192.0.2.1'],
      ['POST', '/config/192.0.2.1'],
      ['PUT', '/config/192.0.2.1/pause'],
      ['DELETE', '/config/192.0.2.1/%26a'],
    ];
    for (const [method, path] of requests) {
      for (const headers of [{}, { 'x-api-key': 'k3' }, { 'x-api-key': '' }] as Record<string, string>[]) {
        const response = await host.call(method!, path!, method === 'POST' ? { groupings: [] } : undefined, headers);
        assert.is(response.status, 401, `${method} ${path} ${JSON.stringify(headers)}`);
        assert.type(response.json.error, 'string');
      }
    }
    assert.equal((await host.call('GET', '/config', undefined, { 'X-Api-Key': 'k2' })).json, { ips: {} });
    assert.is((await host.call('POST', '/config/192.0.2.1', { groupings: [] }, { 'x-api-key': 'k1' })).status, 200);
  });
});

test('requests need no key when no API keys are configured', async () => {
  await withScheduleHost({}, async (host) => {
    assert.is((await host.call('GET', '/status', undefined, { 'x-api-key': 'anything' })).status, 200);
  });
});

test.run();
