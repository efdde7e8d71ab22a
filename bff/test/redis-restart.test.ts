/**
 * The BFF across a restart of its Redis (the chaos run kills the scaled
 * topology's Redis). The BFF runs against a redis-server of this
 * test's own (never the shared one), which is SIGKILLed and restarted either
 * from its append-only file or empty.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { topics } from '@raly/contracts/events';
import { liveEvents } from '@raly/contracts/live';
import { Redis } from 'ioredis';
import type { RunningBff } from '../src/app';
import { readModelKey } from '../src/data-access/read-model';
import { connectLive, receivedOf, type RecordingSocket } from './support/sockets';
import {
  anEnvelope,
  aUserRecord,
  connectTestKafka,
  eventually,
  freePort,
  testKeycloak,
  testStack,
  type TestKafka,
  type TestKeycloak,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import type { TokenSet } from '@raly/contracts/bff-api';

describe('a restart of the BFF’s Redis', () => {
  let bff: RunningBff;
  let kafka: TestKafka;
  let keycloak: TestKeycloak;
  let redis: Redis;
  let server: ChildProcess | undefined;
  let port: number;
  const directory = mkdtempSync(path.join(tmpdir(), 'raly-bff-redis-'));
  const sockets: RecordingSocket[] = [];

  /** Starts redis-server on `port` (append-only file in `directory`, or none) and waits for PING. */
  const startRedis = async (appendOnly: boolean) => {
    server = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        appendOnly ? 'yes' : 'no',
        '--dir',
        directory,
      ],
      { stdio: 'ignore' },
    );
    await eventually('redis-server to answer', () =>
      redis.ping().then(
        () => true,
        () => false,
      ),
    );
  };
  const killRedis = async () => {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server!.kill('SIGKILL');
    await exited;
  };
  const bffReady = () =>
    eventually('the BFF ready again', async () => (await fetch(`${bff.url}/health/ready`)).ok);

  beforeAll(async () => {
    const stack = await testStack();
    port = await freePort();
    redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined); // down on purpose between a kill and a restart
    await startRedis(true);
    bff = await startTestBff(stack, { REDIS_URL: `redis://127.0.0.1:${port}` });
    kafka = await connectTestKafka(stack.kafkaBrokers);
    keycloak = testKeycloak(stack);
  });

  afterAll(async () => {
    for (const { socket } of sockets) socket.close();
    await bff?.stop();
    await kafka?.close();
    await keycloak?.cleanUp();
    redis?.disconnect();
    server?.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  });

  const connectAs = async (email: string, password: string) => {
    const answer = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
      body: { email, password },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const recording = await connectLive(bff, answer.body.data.accessToken);
    sockets.push(recording);
    return recording;
  };

  test('when Redis restarts from its append-only file, then every socket of the replica gets its current record again', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const socket = await connectAs(user.email, user.password);
    const record = aUserRecord({ id: user.id, email: user.email, version: 4 });
    await kafka.produce(topics.identityUser, user.id, JSON.stringify(anEnvelope(record)));
    await eventually('the push of version 4', async () => receivedOf(socket, liveEvents.user)[0]);

    // Act: pushes other replicas publish while the adapter's subscriber is away never arrive.
    await killRedis();
    await startRedis(true);
    await bffReady();

    // Assert: the catch-up after the subscriber came back.
    await eventually('the catch-up after the restart', async () =>
      receivedOf(socket, liveEvents.user).length >= 2 ? true : undefined,
    );
    assert.deepEqual(
      receivedOf(socket, liveEvents.user).map((pushed) => pushed.version),
      [4, 4],
    );
    assert.ok(socket.socket.connected, 'the socket stayed connected');
  });

  test('when Redis restarts without its data, then a redelivered snapshot the replica had applied is stored and pushed again', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const socket = await connectAs(user.email, user.password);
    const record = aUserRecord({ id: user.id, email: user.email, version: 3 });
    const key = readModelKey('user', user.id);
    await kafka.produce(topics.identityUser, user.id, JSON.stringify(anEnvelope(record)));
    await eventually('version 3 in Redis', async () => (await redis.hget(key, 'version')) === '3');

    // Act: an empty Redis (nothing kept), then the same snapshot again (a redelivery).
    await killRedis();
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory);
    await startRedis(false);
    await bffReady();
    assert.equal(await redis.exists(key), 0, 'the restarted Redis lost the snapshot');
    await kafka.produce(topics.identityUser, user.id, JSON.stringify(anEnvelope(record)));

    // Assert
    await eventually(
      'version 3 stored again',
      async () => (await redis.hget(key, 'version')) === '3',
    );
    await eventually('the snapshot pushed again', async () =>
      receivedOf(socket, liveEvents.user).length >= 2 ? true : undefined,
    );
    assert.ok(receivedOf(socket, liveEvents.user).every((pushed) => pushed.version === 3));
  });
});
