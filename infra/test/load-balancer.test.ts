/**
 * The scaled topology's load balancer, for real: HAProxy (Debian's package)
 * with the generated configuration in front of tiny HTTP servers standing in
 * for two BFF replicas, the web app and a service's two instances, on test
 * ports (RALY_TEST_LB_BASE_PORT, default 18080: entry = base, stats = base+1,
 * the servers base+10…). It checks round robin for /api, cookie affinity for
 * /live (and failover to the other replica when the sticky one goes down),
 * websocket upgrades tunnelled, the SPA on everything else, and the metrics.
 */
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { haproxyComponent, type LoadBalancerPlan } from '../src/stack/scale/haproxy';

const base = Number(process.env.RALY_TEST_LB_BASE_PORT ?? 18080);
const plan: LoadBalancerPlan = {
  entryPort: base,
  statsPort: base + 1,
  bff: [
    { name: 'bff-1', port: base + 10 },
    { name: 'bff-2', port: base + 11 },
  ],
  web: { name: 'web', port: base + 12 },
  services: [
    {
      name: 'media',
      port: base + 2,
      instances: [
        { name: 'media-1', port: base + 13 },
        { name: 'media-2', port: base + 14 },
      ],
    },
  ],
  livePath: '/live',
  apiPath: '/api',
  prometheusExporter: true,
};
const dataRoot = mkdtempSync(join(tmpdir(), 'raly-haproxy-'));
const loadBalancer = haproxyComponent('test-haproxy', dataRoot, () => plan, plan.statsPort);

// RFC 6455's sample handshake: HAProxy refuses (400) a websocket upgrade without a key.
const websocketKey = 'dGhlIHNhbXBsZSBub25jZQ==';
const websocketAccept = 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=';

const sockets = new Map<Server, Set<Socket>>();

/** A stand-in app: answers every path with its name, `/health/ready` with 200, and upgrades to an echo tunnel. */
function standIn(name: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    res.setHeader('x-server', name);
    res.end(name);
  });
  const open = new Set<Socket>();
  sockets.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('upgrade', (_req, socket: Socket) => {
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${websocketAccept}\r\nx-server: ${name}\r\n\r\n`,
    );
    socket.on('data', (chunk) => socket.write(`${name}:${chunk.toString()}`));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** Closes a stand-in with every connection it has, upgraded ones included (closeAllConnections misses those). */
function closeStandIn(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets.get(server) ?? []) socket.destroy();
  });
}

/** GETs a path on a port; answers the body and the response's sticky cookie, if any. */
async function get(
  path: string,
  options: { port?: number; cookie?: string } = {},
): Promise<{ body: string; setCookie: string | null }> {
  const response = await fetch(`http://127.0.0.1:${options.port ?? plan.entryPort}${path}`, {
    headers: options.cookie ? { cookie: options.cookie } : {},
    signal: AbortSignal.timeout(5000),
  });
  return { body: await response.text(), setCookie: response.headers.get('set-cookie') };
}

async function bodies(path: string, count: number, port?: number): Promise<string[]> {
  const answers: string[] = [];
  for (let index = 0; index < count; index += 1) answers.push((await get(path, { port })).body);
  return answers;
}

/** Polls until `check` holds (bounded); HAProxy marks servers up after two health checks. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) assert.fail(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('the HAProxy load balancer', () => {
  const servers = new Map<string, Server>();

  beforeAll(async () => {
    for (const upstream of [...plan.bff, plan.web, ...plan.services[0]!.instances])
      servers.set(upstream.name, await standIn(upstream.name, upstream.port));
    await loadBalancer.ensure();
    await eventually(
      async () => new Set(await bodies('/api/me', 4)).size === 2,
      'both BFF stand-ins serve /api',
    );
    await eventually(
      async () => new Set(await bodies('/x', 4, plan.services[0]!.port)).size === 2,
      'both media stand-ins serve the media entry',
    );
  }, 60_000);

  afterAll(async () => {
    await loadBalancer.stop();
    await Promise.all([...servers.values()].map(closeStandIn));
    rmSync(dataRoot, { recursive: true, force: true });
  }, 30_000);

  test('when /api is called repeatedly, then the replicas take turns and no cookie is set', async () => {
    const answers = await bodies('/api/me', 6);
    const { setCookie } = await get('/api/me');

    assert.equal(answers.filter((body) => body === 'bff-1').length, 3);
    assert.equal(answers.filter((body) => body === 'bff-2').length, 3);
    assert.ok(answers.every((body, index) => index === 0 || body !== answers[index - 1]));
    assert.equal(setCookie, null);
  });

  test('when socket.io long-polls with the cookie it was given, then every request reaches the same replica', async () => {
    const first = await get('/live/?EIO=4&transport=polling');
    const cookie = first.setCookie?.split(';')[0];
    assert.equal(cookie, `RALY_LIVE=${first.body}`);

    const answers = [];
    for (let index = 0; index < 6; index += 1)
      answers.push((await get('/live/?EIO=4&transport=polling&sid=x', { cookie })).body);
    const fresh = await bodies('/live/?EIO=4&transport=polling', 2);

    assert.deepEqual(new Set(answers), new Set([first.body]));
    assert.equal(new Set(fresh).size, 2, 'new sessions are still spread round robin');
  });

  test('when a websocket upgrade is asked for on /live, then it is tunnelled to a replica both ways', async () => {
    const echoed = await new Promise<{ status: number; server: string; echo: string }>(
      (resolve, reject) => {
        const upgrade = request({
          host: '127.0.0.1',
          port: plan.entryPort,
          path: '/live/?EIO=4&transport=websocket',
          headers: {
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-key': websocketKey,
            'sec-websocket-version': '13',
          },
        });
        const timer = setTimeout(() => {
          upgrade.destroy();
          reject(new Error('no echo through the tunnel within 5 s'));
        }, 5000);
        upgrade.on('upgrade', (response, socket) => {
          socket.once('data', (chunk) => {
            clearTimeout(timer);
            socket.destroy();
            resolve({
              status: response.statusCode ?? 0,
              server: String(response.headers['x-server']),
              echo: chunk.toString(),
            });
          });
          socket.write('ping');
        });
        upgrade.on('error', reject);
        upgrade.on('response', (response) =>
          reject(new Error(`no upgrade: HTTP ${response.statusCode}`)),
        );
        upgrade.end();
      },
    );

    assert.equal(echoed.status, 101);
    assert.match(echoed.server, /^bff-[12]$/);
    assert.equal(echoed.echo, `${echoed.server}:ping`);
  });

  test('when a path is neither /api nor /live, then the web app answers it', async () => {
    assert.deepEqual(await bodies('/', 2), ['web', 'web']);
    assert.deepEqual(await bodies('/apiary', 1), ['web']);
  });

  test('when the stats port is asked, then it reports health and Prometheus metrics', async () => {
    const metrics = await get('/metrics', { port: plan.statsPort });

    assert.match(metrics.body, /haproxy_backend_active_servers\{proxy="bff_api"\} 2/);
    assert.equal((await fetch(`http://127.0.0.1:${plan.statsPort}/health`)).status, 200);
  });

  test('when the sticky replica goes down, then its client is sent to the other one', async () => {
    const stopped = servers.get('bff-2')!;
    await closeStandIn(stopped);
    servers.delete('bff-2');

    await eventually(
      async () => (await get('/live/?EIO=4', { cookie: 'RALY_LIVE=bff-2' })).body === 'bff-1',
      'a client sticky to bff-2 reaches bff-1',
      10_000,
    );
    assert.deepEqual(await bodies('/api/me', 3), ['bff-1', 'bff-1', 'bff-1']);
  });
});
