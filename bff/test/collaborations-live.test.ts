/**
 * Collaborations live, through the BFF in front of the real services
 * (./support/offers-suite): the opened collaboration, each message (which
 * the tabs count on the record they hold) and each seen mark reach every
 * open tab of the creator and of the brand's member,
 * and no socket of another creator or another brand; the send-message rate
 * limit; nobody's first name, last name or e-mail in any answer or push.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  countedBy,
  type CollaborationMessageRecord,
  type CollaborationRecord,
  type MessagesPage,
} from '@raly/contracts/collaborations';
import { topics } from '@raly/contracts/events';
import { connectTestKafka, eventually, testStack } from '@raly/test-support';
import {
  aMessage,
  anOpenedCollaboration,
  collaborationPushes,
  messagePushes,
  sent,
  settleSocket,
} from './support/collaborations';
import { offersSuite } from './support/offers-suite';
import type { RecordingSocket } from './support/sockets';

const suite = offersSuite({ collaborations: true, tight: true, replica: true });
const { api, live, aBrand, onboardedCreator, seen } = suite;

/** Waits until the BFF's consumer group has consumed every event of `topicNames`. */
async function caughtUp(on: typeof suite, topicNames: string[]): Promise<void> {
  const kafka = await connectTestKafka((await testStack()).kafkaBrokers);
  try {
    await kafka.waitUntilCaughtUp(on.bff.config.KAFKA_GROUP_ID, topicNames);
  } finally {
    await kafka.close();
  }
}

/** Keeps a socket's collaboration pushes for the privacy sweep. */
const sweep = (...sockets: RecordingSocket[]) => {
  for (const socket of sockets)
    seen.push({
      what: 'socket events',
      body: socket.received.filter(([event]) => event.startsWith('collaboration.')),
    });
};

describe('collaborations live', () => {
  test("when the brand accepts and the parties talk, then the collaboration and every message reach each tab of the creator and the brand member, and no other creator's or brand's socket", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const otherCreator = await onboardedCreator(['Gaming']);
    const otherBrand = await aBrand();
    const sockets: Record<string, RecordingSocket> = {};
    const collaboration = await anOpenedCollaboration(suite, { brand, creator }, async () => {
      sockets.brand = await live(brand.accessToken);
      sockets.creator = await live(creator.accessToken);
      sockets.creatorSecondTab = await live(creator.accessToken);
      sockets.otherCreator = await live(otherCreator.accessToken);
      sockets.otherBrand = await live(otherBrand.accessToken);
    });
    const parties = [sockets.brand!, sockets.creator!, sockets.creatorSecondTab!];

    // Assert: opened
    for (const socket of parties)
      await eventually('the opened collaboration pushed', () =>
        collaborationPushes(socket, collaboration.id).some((record) => record.version >= 1),
      );

    // Act: a message each way
    const fromCreator = await sent(suite, creator.accessToken, collaboration.id);
    const fromBrand = await sent(suite, brand.accessToken, collaboration.id, aMessage('Sure.'));

    // Assert: both messages reach every tab of both parties, and each tab counts them on the
    // record it holds as the service counted them (the snapshots they were counted on are
    // stored, not pushed)
    await caughtUp(suite, [topics.collaborationsCollaboration, topics.collaborationsMessage]);
    // Read once the projector stored it: a read of a newer snapshot would push it.
    const read = await api<CollaborationRecord>('GET', `/api/collaborations/${collaboration.id}`, {
      token: creator.accessToken,
    });
    assert.equal(read.body.data.messageCount, 2);
    assert.deepEqual(read.body.data.unread, { brand: 1, creator: 1 });
    for (const [token, socket] of [
      [brand.accessToken, sockets.brand!],
      [creator.accessToken, sockets.creator!],
      [creator.accessToken, sockets.creatorSecondTab!],
    ] as const) {
      await eventually('both messages pushed', () => {
        const ids = messagePushes(socket, collaboration.id).map((message) => message.id);
        return ids.includes(fromCreator.id) && ids.includes(fromBrand.id);
      });
      await settleSocket(suite, token, socket);
      const pushedRecords = collaborationPushes(socket, collaboration.id);
      assert.deepEqual(
        pushedRecords.map((record) => record.messageCount),
        pushedRecords.map(() => 0),
        'no snapshot a message was counted on is pushed',
      );
      const counted = messagePushes(socket, collaboration.id)
        .sort((a, b) => a.sequence - b.sequence)
        .reduce<CollaborationRecord | null>(
          (record, message) => record && countedBy(record, message),
          pushedRecords.at(-1)!,
        );
      assert.deepEqual(counted, read.body.data);
    }
    const pushed = messagePushes(sockets.brand!, collaboration.id);
    assert.deepEqual(
      pushed.find((message) => message.id === fromCreator.id),
      fromCreator,
    );
    assert.equal(fromBrand.collaborationVersion, read.body.data.version);
    await settleSocket(suite, otherCreator.accessToken, sockets.otherCreator!);
    await settleSocket(suite, otherBrand.accessToken, sockets.otherBrand!);
    for (const stranger of [sockets.otherCreator!, sockets.otherBrand!]) {
      assert.deepEqual(collaborationPushes(stranger, collaboration.id), []);
      assert.deepEqual(messagePushes(stranger, collaboration.id), []);
    }
    sweep(...Object.values(sockets));
  });

  test('when messages are answered by either replica, then each reaches every tab of both parties on either replica once, though both its answer and its event carry it', async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const collaboration = await anOpenedCollaboration(suite, { brand, creator });
    const tabs = [
      { token: brand.accessToken, socket: await live(brand.accessToken) },
      { token: creator.accessToken, socket: await live(creator.accessToken, suite.replica) },
      { token: creator.accessToken, socket: await live(creator.accessToken) },
    ];

    // Act: answered by each replica in turn; one of them consumes the conversation's events
    const ids: string[] = [];
    for (const [token, on] of [
      [creator.accessToken, suite.replica],
      [brand.accessToken, suite.bff],
      [creator.accessToken, suite.replica],
      [brand.accessToken, suite.bff],
    ] as const) {
      const answer = await api<CollaborationMessageRecord>(
        'POST',
        `/api/collaborations/${collaboration.id}/messages`,
        { token, body: aMessage(`Message ${ids.length + 1}`), on },
      );
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      ids.push(answer.body.data.id);
    }

    // Assert: every tab has each message, and no second copy came once the events were consumed
    for (const { socket } of tabs)
      await eventually('every message pushed', () =>
        ids.every((id) =>
          messagePushes(socket, collaboration.id).some((message) => message.id === id),
        ),
      );
    await caughtUp(suite, [topics.collaborationsMessage]);
    for (const { token, socket } of tabs) await settleSocket(suite, token, socket);
    for (const { socket } of tabs)
      assert.deepEqual(
        messagePushes(socket, collaboration.id)
          .map((message) => message.id)
          .sort(),
        [...ids].sort(),
      );
    sweep(...tabs.map(({ socket }) => socket));
  });

  test("when the creator marks the brand's message seen, then the creator's other tab and the brand member get the new seen mark at once", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const collaboration = await anOpenedCollaboration(suite, { brand, creator });
    const message = await sent(suite, brand.accessToken, collaboration.id);
    const brandSocket = await live(brand.accessToken);
    const otherTab = await live(creator.accessToken);

    // Act
    const marked = await api<CollaborationRecord>(
      'POST',
      `/api/collaborations/${collaboration.id}/seen`,
      { token: creator.accessToken, body: { sequence: message.sequence } },
    );

    // Assert
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
    assert.equal(marked.body.data.seenSequence.creator, message.sequence);
    for (const socket of [brandSocket, otherTab]) {
      const pushed = await eventually('the seen mark pushed', () =>
        collaborationPushes(socket, collaboration.id).find(
          (record) => record.seenSequence.creator === message.sequence,
        ),
      );
      assert.equal(pushed.unread.creator, 0);
    }
    sweep(brandSocket, otherTab);
  });

  test('when a user sends more messages than RATE_LIMIT_SEND_MESSAGE_PER_USER allows, then the next answers 429 with Retry-After and records nothing, while the other party still sends', async () => {
    // Arrange: the tight BFF allows 2 messages per user and hour
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const collaboration = await anOpenedCollaboration(suite, { brand, creator });
    const path = `/api/collaborations/${collaboration.id}/messages`;
    const on = suite.tightBff;
    for (const body of ['One.', 'Two.']) {
      const answer = await api('POST', path, {
        token: creator.accessToken,
        body: aMessage(body),
        on,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }

    // Act (fetch: its headers are read too)
    const third = await fetch(`${on.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${creator.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(aMessage('Three.')),
    });
    const refusal = (await third.json()) as { error: { code: string; message: string } };
    seen.push({ what: 'the refused send', body: refusal });
    const fromBrand = await api('POST', path, {
      token: brand.accessToken,
      body: aMessage('Still here.'),
      on,
    });
    const history = await api<MessagesPage>('GET', path, { token: creator.accessToken, on });

    // Assert
    assert.equal(third.status, 429, JSON.stringify(refusal));
    assert.equal(refusal.error.code, 'resource-exhausted');
    assert.match(refusal.error.message, /^Too many attempts\. Please try again in \d+ minutes?\.$/);
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    assert.equal(fromBrand.status, 201, JSON.stringify(fromBrand.body));
    assert.deepEqual(
      history.body.data.items.map((message) => message.body),
      ['Still here.', 'Two.', 'One.'],
    );
  });
});

describe('privacy', () => {
  test('when every answer, error and collaboration push of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(20);
  });
});
