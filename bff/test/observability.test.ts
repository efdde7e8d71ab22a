/**
 * The BFF's observability and resilience, with the real stack:
 * - `/metrics` after traffic: sockets, pushes and the live-push delay,
 *   request durations by route, calls to Keycloak, the consumer's state;
 * - readiness without Kafka: a BFF whose brokers do not answer starts, is
 *   ready, serves GET /api/me from its read model, reports
 *   `raly_consumer_connected 0`, and catches up once Kafka answers (the
 *   broker address becomes a proxy to the shared Kafka, which is never stopped);
 * - the drain of a BFF process on SIGTERM: readiness 503 first, the
 *   request in flight answered, sockets closed (their clients reconnect),
 *   the consumer out of its group, exit status 0.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import path from 'node:path';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { Redis } from 'ioredis';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { topics } from '@raly/contracts/events';
import type { TokenSet } from '@raly/contracts/bff-api';
import type { UserRecord } from '@raly/contracts/records';
import type { RunningBff } from '../src/app';
import { createReadModel } from '../src/data-access/read-model';
import { connectLive, type RecordingSocket } from './support/sockets';
import { isolatedLive } from './support/offers';
import {
  anEnvelope,
  aUserRecord,
  connectTestKafka,
  eventually,
  metricValue,
  scrapeMetrics,
  sleep,
  testKeycloak,
  testStack,
  uniqueToken,
  type TestKafka,
  type TestKeycloak,
  type TestStack,
  type TestUser,
  type Sample,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';

/** A port of this test's own range (16000-16499) that nothing listens on now. */
async function portInRange(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 16000 + Math.floor(Math.random() * 500);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createTcpServer()
        .once('error', () => resolve(false))
        .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port in 16000-16499');
}

let stack: TestStack;
let kafka: TestKafka;
let keycloak: TestKeycloak;
let admin: Admin;
const sockets: RecordingSocket[] = [];
const closers: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  stack = await testStack();
  kafka = await connectTestKafka(stack.kafkaBrokers);
  keycloak = testKeycloak(stack);
  admin = new Kafka({
    clientId: 'raly-bff-test',
    brokers: stack.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
});

afterAll(async () => {
  for (const { socket } of sockets) socket.close();
  for (const close of closers.reverse()) await close();
  await admin?.disconnect();
  await kafka?.close();
  await keycloak?.cleanUp();
});

async function signIn(bff: { url: string }, user: TestUser): Promise<string> {
  const answer = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
    body: { email: user.email, password: user.password },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.accessToken;
}

async function connectAs(bff: { url: string }, token: string): Promise<RecordingSocket> {
  const recording = await connectLive(bff as RunningBff, token);
  sockets.push(recording);
  return recording;
}

describe('BFF /metrics', () => {
  test('when a user signs in, holds a socket and receives a live push from Kafka, then /metrics shows the socket, the push and its delay, the request by route and the Keycloak call', async () => {
    // Arrange
    const bff = await startTestBff(stack, isolatedLive());
    closers.push(() => bff.stop());
    const user = await keycloak.createUser();
    const recording = await connectAs(bff, await signIn(bff, user));
    const record = aUserRecord({ id: user.id, email: user.email, version: 5 });

    // A new read model replays the topic's history, pushing old events with their (old) delay:
    // count the pushes of at most a minute's delay before and after this one.
    const recentPushes = (samples: Sample[]) =>
      metricValue(samples, 'raly_bff_live_push_delay_seconds_bucket', { kind: 'user', le: '60' }) ??
      0;
    const before = recentPushes((await scrapeMetrics(bff.url)).samples);

    // Act
    await kafka.produce(topics.identityUser, user.id, JSON.stringify(anEnvelope(record)));
    await eventually('the push to arrive', () =>
      recording.received.some(([, payload]) => (payload as UserRecord).version === 5),
    );
    const unknown = `nobody${uniqueToken(8)}`;
    await callBff(bff, 'GET', `/api/public/users/${unknown}`);

    // Assert
    const { samples, text } = await scrapeMetrics(bff.url);
    assert.equal(metricValue(samples, 'raly_bff_live_sockets'), 1);
    assert.ok((metricValue(samples, 'raly_bff_live_pushes_total', { kind: 'user' }) ?? 0) >= 1);
    assert.ok(recentPushes(samples) >= before + 1, 'the delay of the Kafka push is recorded');
    assert.equal(
      metricValue(samples, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/auth/login',
        status_code: '200',
      }),
      1,
    );
    assert.ok(
      samples.some(
        (sample) =>
          sample.name === 'http_requests_total' &&
          sample.labels.route === '/api/public/users/:username',
      ),
      'a parameterised route is labelled by its pattern',
    );
    assert.ok(!text.includes(unknown), 'the raw URL is never a label value');
    assert.ok(
      (metricValue(samples, 'raly_upstream_request_duration_seconds_count', {
        target: 'keycloak',
        method: 'POST',
        outcome: '2xx',
      }) ?? 0) >= 1,
      'the sign-in’s call to Keycloak is timed',
    );
    assert.equal(
      metricValue(samples, 'raly_consumer_connected', { group: bff.config.KAFKA_GROUP_ID }),
      1,
    );
    assert.ok((metricValue(samples, 'nodejs_eventloop_lag_p99_seconds') ?? -1) >= 0);

    recording.socket.close();
    await eventually('the socket count to drop', async () => {
      const scrape = await scrapeMetrics(bff.url);
      return metricValue(scrape.samples, 'raly_bff_live_sockets') === 0;
    });
  });
});

describe('BFF without Kafka', () => {
  test('when its brokers do not answer, then it starts ready, serves GET /api/me from its read model, reports the consumer disconnected, and catches up once Kafka answers', async () => {
    // Arrange: the BFF's only broker address is a port where nothing listens (yet).
    const brokerPort = await portInRange();
    const isolated = isolatedLive();
    const user = await keycloak.createUser();
    const redis = new Redis(stack.redisUrl);
    closers.push(() => redis.quit());
    const stored = aUserRecord({ id: user.id, email: user.email, version: 3 });
    await createReadModel(redis, isolated.READ_MODEL_KEY_PREFIX).apply('user', stored);

    // Act
    const bff = await startTestBff(stack, {
      ...isolated,
      KAFKA_BROKERS: [`127.0.0.1:${brokerPort}`],
    });
    closers.push(() => bff.stop());

    // Assert: ready and serving from the read model, the degradation in /metrics.
    const ready = await fetch(`${bff.url}/health/ready`);
    assert.equal(ready.status, 200, await ready.text());
    const token = await signIn(bff, user);
    const me = await callBff<{ user: UserRecord }>(bff, 'GET', '/api/me', { token });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.deepEqual(me.body.data.user, stored);
    const group = { group: bff.config.KAFKA_GROUP_ID };
    const degraded = await scrapeMetrics(bff.url);
    assert.equal(metricValue(degraded.samples, 'raly_consumer_connected', group), 0);
    assert.equal(metricValue(degraded.samples, 'raly_consumer_lag', group), undefined);

    // Act: Kafka answers at that address (a TCP proxy to the shared broker), and a change is published.
    const proxy = startTcpProxy(brokerPort, stack.kafkaBrokers[0]!);
    closers.push(() => proxy.close());
    const newer = { ...stored, username: `caughtup${uniqueToken(6)}`, version: 4 };
    await kafka.produce(topics.identityUser, user.id, JSON.stringify(anEnvelope(newer)));

    // Assert: the projector joined and caught up.
    await eventually(
      'the BFF to project the change once Kafka answers',
      async () => {
        const answer = await callBff<{ user: UserRecord }>(bff, 'GET', '/api/me', { token });
        return answer.body.data?.user.version === 4;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const recovered = await scrapeMetrics(bff.url);
    assert.equal(metricValue(recovered.samples, 'raly_consumer_connected', group), 1);
  });
});

/** Listens on `port` and pipes each connection to `target` (`host:port`). */
function startTcpProxy(port: number, target: string): { close(): Promise<void> } {
  const [host, targetPort] = target.split(':') as [string, string];
  const open = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(Number(targetPort), host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  server.listen(port, '127.0.0.1');
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

describe('BFF process on SIGTERM', () => {
  let child: ChildProcess | undefined;
  let slowIdentity: HttpServer | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await new Promise((resolve) => (slowIdentity ? slowIdentity.close(resolve) : resolve(null)));
  });

  test('when it is drained with a request in flight and a socket open, then readiness fails first, the request is answered, the socket is closed, the consumer leaves its group and the process exits 0', async () => {
    // Arrange: identity-profile answers after 2.5 s, so a public-profile request stays in flight.
    const identityPort = await portInRange();
    slowIdentity = createHttpServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'not-found', message: 'No such user.' } }));
      }, 2500);
    }).listen(identityPort, '127.0.0.1');
    const port = await portInRange();
    const groupId = `bff-test-drain-${uniqueToken(12)}`;
    const live = isolatedLive();
    const bffProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.join(import.meta.dirname, '..'),
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        REDIS_URL: stack.redisUrl,
        KAFKA_BROKERS: stack.kafkaBrokers.join(','),
        KAFKA_GROUP_ID: groupId,
        KEYCLOAK_URL: stack.keycloakUrl,
        KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
        KEYCLOAK_REALM: stack.realm,
        IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
        RATE_LIMIT_KEY_PREFIX: `bff-test-rate-${uniqueToken(12)}`,
        READ_MODEL_KEY_PREFIX: live.READ_MODEL_KEY_PREFIX,
        LIVE_ADAPTER_KEY: live.LIVE_ADAPTER_KEY,
        SHUTDOWN_DRAIN_DELAY_MS: '1500',
        SHUTDOWN_TIMEOUT_MS: '10000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = bffProcess;
    let stderr = '';
    bffProcess.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => bffProcess.once('exit', resolve));
    const bff = { url: `http://127.0.0.1:${port}` };
    await eventually(
      'the BFF process to be ready',
      async () => (await fetch(`${bff.url}/health/ready`).catch(() => undefined))?.status === 200,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await eventually(
      'its consumer to be in its group',
      async () => (await admin.describeGroups([groupId])).groups[0]?.members.length === 1,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const user = await keycloak.createUser();
    const recording = await connectAs(bff, await signIn(bff, user));
    const disconnected = new Promise<string>((resolve) =>
      recording.socket.once('disconnect', (reason) => resolve(reason)),
    );
    const inFlight = callBff(bff, 'GET', `/api/public/users/slow${uniqueToken(6)}`);
    await sleep(300);

    // Act
    bffProcess.kill('SIGTERM');

    // Assert
    await eventually(
      'readiness to fail while the drain delay runs',
      async () => (await fetch(`${bff.url}/health/ready`)).status === 503,
      { timeoutMs: 1400, intervalMs: 50 },
    );
    const answer = await inFlight;
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, 'not-found');
    // A transport close, not a server-side disconnect: socket.io clients reconnect on their own.
    assert.equal(await disconnected, 'transport close');
    assert.equal(await exited, 0, stderr);
    const [group] = (await admin.describeGroups([groupId])).groups;
    assert.deepEqual(group?.members, [], 'the consumer left its group');
  });
});
