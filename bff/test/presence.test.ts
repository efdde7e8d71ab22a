/**
 * Presence heartbeats (docs/architecture.md "Presence"): a replica publishes
 * `live.presence.seen` for a user when their socket connects and again every
 * PRESENCE_HEARTBEAT_MS while it stays open, and stops once it closed.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TokenSet } from '@raly/contracts/bff-api';
import { eventTypes, parseEnvelope, topics } from '@raly/contracts/events';
import {
  listenToTopic,
  sleep,
  testKeycloak,
  testStack,
  type TestKeycloak,
  type TopicListener,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import type { RunningBff } from '../src/app';
import { connectLive } from './support/sockets';

const HEARTBEAT_MS = 300;

describe('presence heartbeats', () => {
  let bff: RunningBff;
  let keycloak: TestKeycloak;
  let presence: TopicListener;

  beforeAll(async () => {
    const stack = await testStack();
    presence = await listenToTopic(stack.kafkaBrokers, topics.livePresence);
    bff = await startTestBff(stack, { PRESENCE_HEARTBEAT_MS: HEARTBEAT_MS });
    keycloak = testKeycloak(stack);
  });

  afterAll(async () => {
    await bff?.stop();
    await presence?.stop();
    await keycloak?.cleanUp();
  });

  const beatsOf = (userId: string) =>
    presence.messages.filter((message) => message.key?.toString() === userId);

  test('when a user keeps a socket open, then heartbeats of that user arrive until it closes', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const login = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));

    // Act
    const { socket } = await connectLive(bff, login.body.data.accessToken);
    await presence.waitFor((message) => message.key?.toString() === user.id);
    await sleep(HEARTBEAT_MS * 4);
    socket.close();
    await sleep(HEARTBEAT_MS * 2);
    const afterClose = beatsOf(user.id).length;
    await sleep(HEARTBEAT_MS * 4);

    // Assert
    const beats = beatsOf(user.id);
    assert.ok(afterClose >= 3, `only ${afterClose} heartbeats while connected`);
    assert.equal(beats.length, afterClose, 'heartbeats went on after the socket closed');
    const envelope = parseEnvelope(beats[0]!.value!);
    assert.equal(envelope.type, eventTypes.presenceSeen);
    assert.deepEqual(Object.keys(envelope.data as object).sort(), ['seenAt', 'userId']);
    assert.equal((envelope.data as { userId: string }).userId, user.id);
  });
});
