/**
 * socket.io `/live`: handshake authentication and the room rule — a push
 * for one user reaches that user's sockets and nobody else's (privacy).
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes, topics } from '@raly/contracts/events';
import type { RunningBff } from '../src/app';
import type { TokenSet } from '@raly/contracts/bff-api';
import { connectLive, type RecordingSocket } from './support/sockets';
import {
  aBrandRecord,
  anEnvelope,
  aUserRecord,
  connectTestKafka,
  eventually,
  sleep,
  type TestKafka,
  testKeycloak,
  type TestKeycloak,
  testStack,
  type TestUser,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';

/** How long a socket must stay silent to count as "received nothing", in ms. */
const SILENCE_WINDOW_MS = 1500;

describe('live pushes over socket.io', () => {
  let bff: RunningBff;
  let kafka: TestKafka;
  let keycloak: TestKeycloak;
  const sockets: RecordingSocket[] = [];

  beforeAll(async () => {
    const stack = await testStack();
    bff = await startTestBff(stack);
    kafka = await connectTestKafka(stack.kafkaBrokers);
    keycloak = testKeycloak(stack);
  });

  afterAll(async () => {
    for (const { socket } of sockets) socket.close();
    await bff?.stop();
    await kafka?.close();
    await keycloak?.cleanUp();
  });

  const signIn = async (user: TestUser) => {
    const answer = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data.accessToken as string;
  };
  const connectAs = async (user: TestUser) => {
    const recording = await connectLive(bff, await signIn(user));
    sockets.push(recording);
    return recording;
  };

  test("when user A's record is updated, then A's socket receives it and B's socket receives nothing", async () => {
    // Arrange
    const [userA, userB] = await Promise.all([keycloak.createUser(), keycloak.createUser()]);
    const [socketA, socketB] = await Promise.all([connectAs(userA), connectAs(userB)]);
    const recordA = aUserRecord({ id: userA.id, email: userA.email, version: 7 });

    // Act
    await kafka.produce(topics.identityUser, userA.id, JSON.stringify(anEnvelope(recordA)));

    // Assert
    const [event, payload] = await eventually(
      'A to receive user.updated',
      async () => socketA.received[0],
    );
    assert.equal(event, 'user.updated');
    assert.deepEqual(payload, recordA);
    await sleep(SILENCE_WINDOW_MS);
    assert.deepEqual(socketB.received, []);
  });

  test('when a socket starts on long-polling and upgrades to a WebSocket (the web app way), then pushes reach it over the WebSocket, and the upgrade request the BFF released breaks neither it nor its close', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const upgraded = await connectLive(bff, await signIn(user), ['polling', 'websocket']);
    sockets.push(upgraded);
    await eventually('the upgrade to a WebSocket', () =>
      upgraded.socket.io.engine.transport.name === 'websocket' ? true : undefined,
    );
    const record = aUserRecord({ id: user.id, email: user.email, version: 4 });

    // Act
    await kafka.produce(topics.identityUser, user.id, JSON.stringify(anEnvelope(record)));

    // Assert
    assert.deepEqual(
      await eventually('the push', async () => upgraded.received.find(([, p]) => p.version === 4)),
      ['user.updated', record],
    );
    const closed = new Promise((resolve) => upgraded.socket.once('disconnect', resolve));
    upgraded.socket.close();
    await closed;
    const again = await connectAs(user);
    await eventually('a new socket still served', async () => again.received[0]);
  });

  test('when a stale version of a record is published, then no socket is told about it', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const socket = await connectAs(user);
    const record = aUserRecord({ id: user.id, email: user.email, version: 3 });
    await kafka.produce(topics.identityUser, user.id, JSON.stringify(anEnvelope(record)));
    await eventually('the first push', async () => socket.received[0]);

    // Act
    const stale = await kafka.produce(
      topics.identityUser,
      user.id,
      JSON.stringify(anEnvelope({ ...record, version: 2 })),
    );
    await kafka.waitUntilCommitted(bff.config.KAFKA_GROUP_ID, topics.identityUser, stale);
    await sleep(500);

    // Assert
    assert.deepEqual(
      socket.received.map(([, payload]) => payload.version),
      [3],
    );
  });

  test("when a brand user's brand is updated, then the brand user's sockets receive brand.updated and others do not", async () => {
    // Arrange
    const [brandUser, creator] = await Promise.all([keycloak.createUser(), keycloak.createUser()]);
    const brand = aBrandRecord({ version: 1 });
    const brandUserRecord = aUserRecord({
      id: brandUser.id,
      version: 1,
      brand: { id: brand.id, isAdmin: true },
    });
    // One socket is open before the user becomes a brand user, one connects after.
    const [earlySocket, creatorSocket] = await Promise.all([
      connectAs(brandUser),
      connectAs(creator),
    ]);
    await kafka.produce(
      topics.identityUser,
      brandUser.id,
      JSON.stringify(anEnvelope(brandUserRecord)),
    );
    await eventually('the user push', async () => earlySocket.received[0]);
    const lateSocket = await connectAs(brandUser);

    // Act
    await kafka.produce(
      topics.brandBrand,
      brand.id,
      JSON.stringify(anEnvelope(brand, eventTypes.brandUpdated)),
    );

    // Assert
    const brandPushOf = (recording: RecordingSocket) => async () =>
      recording.received.find(([event]) => event === 'brand.updated')?.[1];
    assert.deepEqual(
      await eventually('the brand push to the early socket', brandPushOf(earlySocket)),
      brand,
    );
    assert.deepEqual(
      await eventually('the brand push to the late socket', brandPushOf(lateSocket)),
      brand,
    );
    await sleep(SILENCE_WINDOW_MS);
    assert.deepEqual(creatorSocket.received, []);
  });

  test('when a socket joins after a change was stored, then it receives the current snapshot once as it connects', async () => {
    // Arrange: a change stored while no socket of the user was open
    const user = await keycloak.createUser();
    const record = aUserRecord({ id: user.id, email: user.email, version: 4 });
    const stored = await kafka.produce(
      topics.identityUser,
      user.id,
      JSON.stringify(anEnvelope(record)),
    );
    await kafka.waitUntilCommitted(bff.config.KAFKA_GROUP_ID, topics.identityUser, stored);

    // Act
    const socket = await connectAs(user);

    // Assert
    await eventually('the catch-up snapshot', async () => socket.received[0]);
    await sleep(500);
    assert.deepEqual(socket.received, [['user.updated', record]]);
  });

  test('when a socket connects without a token, then it is refused as unauthenticated, not to be retried', async () => {
    await assert.rejects(connectLive(bff, undefined), {
      message: 'unauthenticated',
      data: { retryable: false },
    });
  });

  test('when a socket connects with a forged token, then it is refused as unauthenticated', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const [header, payload] = (await signIn(user)).split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
        sub: 'someone-else',
      }),
    ).toString('base64url');

    // Act / Assert
    await assert.rejects(connectLive(bff, `${header}.${forgedPayload}.AAAA`), {
      message: 'unauthenticated',
      data: { retryable: false },
    });
  });

  test('when a socket connects with a token that is not a JWT, then it is refused as unauthenticated', async () => {
    await assert.rejects(connectLive(bff, 'not-a-token'), { message: 'unauthenticated' });
  });
});
