import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@svc-run/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../start-server.js';
import { useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests } from '../test-support/eval-requests.js';
import { datasetVersion, experiment } from '../test-support/eval-setup.js';
import type { ResolvedAddress } from './target-address-policy.js';

// Issue 13 item 2: a Read-and-write key registers target URLs, and the server POSTs to them from
// its own network. Unless the server was started with allowPrivateTargets, a target whose host is
// or resolves to a non-public address is refused when registered, and again when a delivery
// connects (the address connected to is the one checked: DNS rebinding).

/** Simulated DNS: each name's answers, in turn (the last one repeats). */
const dns = new Map<string, ResolvedAddress[][]>();
const lookups: string[] = [];
async function simulatedLookup(hostname: string): Promise<readonly ResolvedAddress[]> {
  lookups.push(hostname);
  const answers = dns.get(hostname);
  if (answers === undefined || answers.length === 0) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  }
  return answers.length > 1 ? answers.shift()! : answers[0]!;
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** The server under test: private targets refused (the default), DNS simulated. */
const fx = useServer({ targetLookup: simulatedLookup });
const api = evalRequests(fx);
/** A server on the system resolver, to resolve `localhost` as the machine does. */
const system = useServer();
const systemApi = evalRequests(system);

/** A target on 127.0.0.1 recording what reaches it. */
let local: { port: number; received: number; server: Server };
beforeAll(async () => {
  const server = createServer((req, res) => {
    local.received++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local = { port: (server.address() as AddressInfo).port, received: 0, server };
});
afterAll(async () => {
  await new Promise((resolve) => local.server.close(resolve));
});

async function register(url: string, client = api) {
  return client.post<{ id: string } & ErrorBody>('/managed-targets', { name: 'Target', url });
}

function refusal(addressClass: string): string {
  return `url: the host is or resolves to a ${addressClass} address; managed targets must have public addresses (start the server with allowPrivateTargets, svc serve --allow-private-targets, to deliver to a local or private one).`;
}

interface Dispatch {
  state: string;
  failure: string | null;
  responseStatus: number | null;
}

/** Dispatches a new one-case experiment to `targetId` and waits for the delivery to end. */
async function deliverTo(client: typeof api, targetId: string): Promise<Dispatch> {
  const { versionId, caseIds } = await datasetVersion(client, [{ externalKey: 'one', inputs: 1 }]);
  const created = await experiment(client, versionId);
  const res = await client.post<{ dispatch: { id: string } }>(
    `/experiments/${created.id}/cases/${caseIds[0]}/dispatch`,
    { targetId },
  );
  expect(res.status).toBe(200);
  return waitUntil(async () => {
    const read = await client.get<Dispatch>(`/dispatches/${res.body.dispatch.id}`);
    return read.body.state !== 'delivering' && read.body;
  }, 'the dispatch to end');
}

describe('registering a managed target', () => {
  it.each([
    ['http://127.0.0.1:8080/run', 'loopback'],
    ['http://127.1/run', 'loopback'], // shorthand, read as 127.0.0.1 by the URL parser
    ['http://2130706433/run', 'loopback'], // 127.0.0.1 as one number
    ['http://0x7f.0.0.1/run', 'loopback'],
    ['http://[::1]/run', 'loopback'],
    ['http://10.0.0.5/run', 'private'],
    ['https://172.20.1.1/run', 'private'],
    ['http://192.168.0.10:3000/run', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fe80::1]/run', 'link-local'],
    ['http://224.0.0.251/run', 'multicast'],
    ['http://[ff02::1]/run', 'multicast'],
    ['http://0.0.0.0:8080/run', 'unspecified'],
    ['http://[::]/run', 'unspecified'],
    ['http://100.64.1.2/run', 'shared (carrier-grade NAT)'],
    ['http://[fd00::1]/run', 'unique local'],
    ['http://[::ffff:127.0.0.1]/run', 'IPv4-mapped loopback'],
    ['http://[::ffff:10.0.0.1]/run', 'IPv4-mapped private'],
    ['http://[::ffff:169.254.169.254]/run', 'IPv4-mapped link-local'],
    ['http://192.0.2.1/run', 'reserved'],
  ])('refuses %s (%s) with 422', async (url, addressClass) => {
    const res = await register(url);
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ code: 'invalid_request', message: refusal(addressClass) });
  });

  it('refuses localhost, which the system resolver answers with loopback addresses', async () => {
    for (const url of ['http://localhost:8080/run', 'http://LocalHost/run']) {
      const res = await register(url, systemApi);
      expect(res.status, url).toBe(422);
      expect(res.body.error.message, url).toMatch(
        /^url: the host is or resolves to a (IPv4-mapped )?loopback address;/,
      );
    }
  });

  it('refuses a name that resolves to a private address, or to a public and a private one', async () => {
    dns.set('intranet.example', [[v4('10.1.2.3')]]);
    dns.set('mixed.example', [[v4('93.184.215.14'), v6('fd00::7')]]);
    dns.set('metadata.example', [[v6('::ffff:169.254.169.254')]]);
    expect((await register('https://intranet.example/run')).body.error.message).toBe(refusal('private'));
    expect((await register('https://mixed.example/run')).body.error.message).toBe(refusal('unique local'));
    expect((await register('https://metadata.example/run')).body.error.message).toBe(
      refusal('IPv4-mapped link-local'),
    );
  });

  it('registers a public address or a name resolving only to public addresses', async () => {
    dns.set('app.example', [[v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')]]);
    for (const url of [
      'https://app.example/svc/managed',
      'https://93.184.215.14/run',
      'https://[2606:4700::1]/x',
    ]) {
      const res = await register(url);
      expect(res.status, url).toBe(200);
    }
  });
});

describe('delivering to a managed target', () => {
  it('checks the address it connects to: a name rebound to loopback after registration is not contacted', async () => {
    // Public when registered, then 127.0.0.1 — where a target is listening.
    dns.set('rebind.example', [[v4('93.184.215.14')], [v4('127.0.0.1')]]);
    const target = await register(`http://rebind.example:${local.port}/run`);
    expect(target.status).toBe(200);
    const before = local.received;
    const lookupsBefore = lookups.filter((name) => name === 'rebind.example').length;
    const done = await deliverTo(api, target.body.id);
    expect(done).toMatchObject({ state: 'failed', responseStatus: null });
    expect(done.failure).toBe(
      'the target was not contacted: its host is or resolves to a loopback address, and this server delivers only to public addresses (start it with allowPrivateTargets, svc serve --allow-private-targets, to allow private ones)',
    );
    expect(local.received).toBe(before);
    // The name was resolved again for the connection, not taken from the registration.
    expect(lookups.filter((name) => name === 'rebind.example').length).toBeGreaterThan(lookupsBefore);
  });

  it('refuses at connection time a private target registered while the server allowed them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-targets-'));
    try {
      const allowing = await startServer({ dataDir, allowPrivateTargets: true });
      let targetId: string;
      try {
        const res = await allowing.app.request('/api/v1/evals/managed-targets', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${allowing.keys.readWrite}`,
            'content-type': 'application/json',
            'idempotency-key': 'register-local',
          },
          body: JSON.stringify({ name: 'Local', url: `http://127.0.0.1:${local.port}/run` }),
        });
        expect(res.status).toBe(200);
        targetId = ((await res.json()) as { id: string }).id;
      } finally {
        await allowing.close();
      }
      const strict = await startServer({ dataDir });
      try {
        const client = evalRequests({
          get server() {
            return strict;
          },
          request: (path, init = {}) => {
            const { key, ...rest } = init;
            const headers = new Headers(rest.headers);
            headers.set('authorization', `Bearer ${key ?? strict.keys.readWrite}`);
            return Promise.resolve(strict.app.request(path, { ...rest, headers }));
          },
          postJson: () => Promise.reject(new Error('unused')),
          receipt: () => Promise.reject(new Error('unused')),
        });
        const before = local.received;
        const done = await deliverTo(client, targetId);
        expect(done.state).toBe('failed');
        expect(done.failure).toContain('its host is or resolves to a loopback address');
        expect(local.received).toBe(before);
      } finally {
        await strict.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a server started with allowPrivateTargets', () => {
  const allowing = useServer({ allowPrivateTargets: true, targetLookup: simulatedLookup });
  const allowingApi = evalRequests(allowing);

  it('registers and delivers to a local target', async () => {
    dns.set('dev.internal', [[v4('127.0.0.1')]]);
    for (const url of [`http://127.0.0.1:${local.port}/run`, `http://dev.internal:${local.port}/run`]) {
      const target = await register(url, allowingApi);
      expect(target.status, url).toBe(200);
      const before = local.received;
      const done = await deliverTo(allowingApi, target.body.id);
      expect(done, url).toMatchObject({ state: 'delivered', responseStatus: 200 });
      expect(local.received).toBe(before + 1);
    }
  });

  it('refuses a non-boolean allowPrivateTargets and a targetLookup that is not a function', async () => {
    await expect(startServer({ allowPrivateTargets: 'yes' as never })).rejects.toThrow(
      'allowPrivateTargets must be a boolean; got string',
    );
    await expect(startServer({ targetLookup: 'dns' as never })).rejects.toThrow(
      'targetLookup must be a function resolving a host name to its addresses; got string',
    );
  });
});
