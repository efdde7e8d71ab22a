/**
 * The conversation: the message rules and their messages, a retried send
 * (the same client id) stored once, the contact-details notice and its
 * confirmation, a cancelled collaboration, history pages newest first, one
 * message read by its id (its parties only), and the events on `collaborations.message.v1` and
 * `collaborations.collaboration.v1`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, beforeAll } from 'vitest';
import {
  countedBy,
  type CollaborationMessageRecord,
  type CollaborationRecord,
  type MessagesPage,
} from '@raly/contracts/collaborations';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import { callApi, envelopeOf, passwordGrant, uniqueToken } from '@raly/test-support';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import {
  aMessage,
  asUser,
  openedCollaboration,
  publishedCollaboration,
  useCollaborationsSystem,
} from './support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let brand: Awaited<ReturnType<typeof registeredBrand>>;
let creator: Awaited<ReturnType<typeof registeredCreator>>;

beforeAll(async () => {
  system = harness.system;
  [brand, creator] = await Promise.all([registeredBrand(system), registeredCreator(system)]);
});

const asCreator = () => asUser(system, creator.accessToken);
const asBrand = () => asUser(system, brand.accessToken);
const opened = () => openedCollaboration(system, { creator, brand });

/** Sends a message as the creator and answers the stored message. */
async function sent(collaborationId: string, body?: string) {
  const answer = await asCreator()<CollaborationMessageRecord>(
    'POST',
    `/collaborations/${collaborationId}/messages`,
    aMessage(body),
  );
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data!;
}

const read = async (id: string) =>
  (await asCreator()<CollaborationRecord>('GET', `/collaborations/${id}`)).body.data!;

/** A sent message as the history shows it: without the version its send counted. */
function asStored(message: CollaborationMessageRecord): CollaborationMessageRecord {
  const stored = { ...message };
  delete stored.collaborationVersion;
  return stored;
}

describe('sending', () => {
  test('when the creator sends a message, then it is answered 201 with sequence 1, counted for the brand, and both events are published', async () => {
    // Arrange
    const collaboration = await opened();
    const form = aMessage('  Hello! Can you send the first draft by Friday 10:30?  ');

    // Act
    const answer = await asCreator()<CollaborationMessageRecord>(
      'POST',
      `/collaborations/${collaboration.id}/messages`,
      form,
    );

    // Assert
    assert.equal(answer.status, 201);
    const message = answer.body.data!;
    assert.equal(message.sequence, 1);
    assert.equal(message.version, 1);
    assert.equal(message.collaborationId, collaboration.id);
    assert.equal(message.clientId, form.clientId);
    assert.equal(message.body, form.body.trim());
    assert.deepEqual(message.sender, { party: 'creator', handle: collaboration.creator.username });
    const after = await read(collaboration.id);
    assert.equal(after.version, collaboration.version + 1);
    assert.equal(after.messageCount, 1);
    assert.equal(after.lastMessageAt, message.created);
    assert.deepEqual(after.unread, { brand: 1, creator: 0 });
    // The answer carries the counted version, and a tab counting it gets the service's record.
    assert.equal(message.collaborationVersion, after.version);
    assert.deepEqual(countedBy(collaboration, message), after);
    const messageEvent = envelopeOf<CollaborationMessageRecord>(
      await harness.messageEvents.waitFor(
        (candidate) => envelopeOf(candidate).subject === message.id,
      ),
    );
    assert.equal(messageEvent.type, eventTypes.messageSent);
    assert.deepEqual(messageEvent.data, message);
    const [keyed] = harness.messageEvents.messages.filter(
      (candidate) => envelopeOf(candidate).subject === message.id,
    );
    assert.equal(keyed!.key?.toString(), collaboration.id);
    const updated = await publishedCollaboration(harness, after);
    assert.equal(updated.type, eventTypes.collaborationConversationUpdated);
    assert.deepEqual(updated.data, after);
  });

  test('when a brand member sends before and after choosing a handle, then only the later message carries it, as sent, read back and published', async () => {
    // Arrange: a brand of its own (its founder has no handle yet) and its collaboration.
    const member = await registeredBrand(system);
    const collaboration = await openedCollaboration(system, { creator, brand: member });
    const asMember = asUser(system, member.accessToken);
    const path = `/collaborations/${collaboration.id}/messages`;
    const handle = `m${uniqueToken(8)}`;

    // Act
    const before = await asMember<CollaborationMessageRecord>('POST', path, aMessage('Hello!'));
    const chosen = await callApi(
      system.brandUrl,
      'PUT',
      `/brands/${member.brandId}/members/me/handle`,
      { token: member.accessToken, body: { handle } },
    );
    // A token's handle is remembered like its brand: the member signs in again to send with it.
    const signedInAgain = await passwordGrant(
      system.stack,
      member.registration.email,
      member.registration.password,
    );
    const after = await asUser(system, signedInAgain.access_token)<CollaborationMessageRecord>(
      'POST',
      path,
      aMessage('Me again.'),
    );

    // Assert
    assert.equal(chosen.status, 200, JSON.stringify(chosen.body));
    assert.equal(before.status, 201, JSON.stringify(before.body));
    assert.equal(after.status, 201, JSON.stringify(after.body));
    const brandName = collaboration.brand.username;
    assert.deepEqual(before.body.data!.sender, { party: 'brand', handle: brandName });
    assert.deepEqual(after.body.data!.sender, {
      party: 'brand',
      handle: brandName,
      memberHandle: handle.toLowerCase(),
    });
    const page = await asCreator()<MessagesPage>('GET', `${path}?limit=10`);
    assert.deepEqual(
      page.body.data!.items.map((message) => message.sender),
      [after.body.data!.sender, before.body.data!.sender],
    );
    const published = envelopeOf<CollaborationMessageRecord>(
      await harness.messageEvents.waitFor(
        (candidate) => envelopeOf(candidate).subject === after.body.data!.id,
      ),
    );
    assert.deepEqual(published.data, after.body.data);
  });

  test('when the same message is sent again with its client id, also at the same time, then it is stored once and the retries answer 200 with it', async () => {
    // Arrange
    const collaboration = await opened();
    const form = aMessage();
    const path = `/collaborations/${collaboration.id}/messages`;

    // Act
    const answers = await Promise.all(
      [1, 2, 3].map(() => asCreator()<CollaborationMessageRecord>('POST', path, form)),
    );
    const later = await asCreator()<CollaborationMessageRecord>('POST', path, form);

    // Assert
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 200, 201]);
    assert.equal(later.status, 200);
    const ids = new Set([...answers, later].map((answer) => answer.body.data!.id));
    assert.equal(ids.size, 1);
    // Only the send that stored it counted it: a retry's answer carries no version to count.
    const versions = [...answers, later].map((answer) => answer.body.data!.collaborationVersion);
    assert.deepEqual(
      versions.filter((version) => version !== undefined),
      [collaboration.version + 1],
    );
    const after = await read(collaboration.id);
    assert.equal(after.messageCount, 1);
    assert.equal(after.unread.brand, 1);
  });

  test('when both sides send many messages at the same time, then their sequences run 1 to N without a gap or a repeat, and each side counts the other’s as unread', async () => {
    // Arrange
    const collaboration = await opened();
    const path = `/collaborations/${collaboration.id}/messages`;
    const senders = [
      asCreator,
      asBrand,
      asCreator,
      asCreator,
      asBrand,
      asCreator,
      asBrand,
      asBrand,
    ];

    // Act
    const answers = await Promise.all(
      senders.map((as) => as()<CollaborationMessageRecord>('POST', path, aMessage())),
    );

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      senders.map(() => 201),
    );
    const bySequence = answers
      .map((answer) => answer.body.data!)
      .sort((a, b) => a.sequence - b.sequence);
    assert.deepEqual(
      bySequence.map((message) => message.sequence),
      senders.map((_, index) => index + 1),
    );
    const after = await read(collaboration.id);
    assert.equal(after.messageCount, senders.length);
    assert.deepEqual(after.unread, { brand: 4, creator: 4 });
    assert.equal(after.version, collaboration.version + senders.length);
    const history = await asBrand()<MessagesPage>('GET', `${path}?limit=100`);
    assert.deepEqual(
      history.body.data!.items.map((message) => [message.sequence, message.sender.party]),
      [...bySequence].reverse().map((message) => [message.sequence, message.sender.party]),
    );
  });

  test('when a message is empty, blank, longer than 2,000 characters, or its form is wrong, then 400 with the rule’s message and nothing is stored', async () => {
    // Arrange
    const collaboration = await opened();
    const path = `/collaborations/${collaboration.id}/messages`;
    const cases: [unknown, string][] = [
      [{ clientId: randomUUID(), body: '' }, messages.messageRequired],
      [{ clientId: randomUUID(), body: ' \n\t ' }, messages.messageRequired],
      [{ clientId: randomUUID(), body: 'a'.repeat(2001) }, messages.messageTooLong],
      [{ clientId: 'not-a-uuid', body: 'Hello' }, messages.requestProblem],
      [{ clientId: randomUUID() }, messages.requestProblem],
      [{ ...aMessage(), extra: true }, messages.requestProblem],
      [{ clientId: randomUUID(), body: 'Bell \u0007 here' }, messages.controlCharacters],
    ];

    for (const [form, message] of cases) {
      // Act
      const answer = await asCreator()('POST', path, form);

      // Assert
      assert.equal(answer.status, 400, JSON.stringify(form));
      assert.equal(answer.body.error?.code, 'invalid-argument');
      if (message !== messages.requestProblem) assert.equal(answer.body.error?.message, message);
    }
    assert.equal((await read(collaboration.id)).messageCount, 0);
    const longest = await asBrand()('POST', path, aMessage('b'.repeat(2000)));
    assert.equal(longest.status, 201);
  });

  test('when a message looks like it holds an e-mail address or a phone number, then 409 contact-details with the notice, and once confirmed it is sent', async () => {
    // Arrange
    const collaboration = await opened();
    const path = `/collaborations/${collaboration.id}/messages`;

    for (const body of ['Write to me at ada@example.com', 'Call me on +44 20 7946 0958']) {
      const form = aMessage(body);

      // Act
      const refused = await asBrand()('POST', path, form);
      const confirmed = await asBrand()<CollaborationMessageRecord>('POST', path, {
        ...form,
        confirmContactDetails: true,
      });

      // Assert
      assert.equal(refused.status, 409);
      assert.deepEqual(refused.body.error, {
        code: 'contact-details',
        message: messages.contactDetailsNotice,
      });
      assert.equal(confirmed.status, 201);
      assert.equal(confirmed.body.data!.body, body);
    }
    const after = await read(collaboration.id);
    assert.equal(after.messageCount, 2);
    assert.equal(after.unread.creator, 2);
  });

  test('when the collaboration was cancelled, then a new message answers 409 collaborationCancelled', async () => {
    // Arrange
    const collaboration = await opened();
    await system.sql.collaborations!.query(
      `UPDATE collaborations SET status = 'cancelled' WHERE id = $1`,
      [collaboration.id],
    );

    // Act
    const answer = await asCreator()(
      'POST',
      `/collaborations/${collaboration.id}/messages`,
      aMessage(),
    );

    // Assert
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error, {
      code: 'conflict',
      message: messages.collaborationCancelled,
    });
    assert.equal((await read(collaboration.id)).messageCount, 0);
  });
});

describe('history', () => {
  test('when the history is read a page at a time, then messages come newest first, each page below the one before, until none is left', async () => {
    // Arrange
    const collaboration = await opened();
    const bodies = ['one', 'two', 'three', 'four', 'five'];
    for (const body of bodies) await sent(collaboration.id, body);
    const page = async (query: string) => {
      const answer = await asBrand()<MessagesPage>(
        'GET',
        `/collaborations/${collaboration.id}/messages${query}`,
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.data!;
    };

    // Act
    const first = await page('?limit=2');
    const second = await page(`?limit=2&before=${first.nextBefore}`);
    const third = await page(`?limit=2&before=${second.nextBefore}`);
    const whole = await page('');

    // Assert
    const view = (result: MessagesPage) => ({
      sequences: result.items.map((item) => item.sequence),
      bodies: result.items.map((item) => item.body),
      nextBefore: result.nextBefore,
    });
    assert.deepEqual(view(first), { sequences: [5, 4], bodies: ['five', 'four'], nextBefore: 4 });
    assert.deepEqual(view(second), { sequences: [3, 2], bodies: ['three', 'two'], nextBefore: 2 });
    assert.deepEqual(view(third), { sequences: [1], bodies: ['one'], nextBefore: null });
    assert.deepEqual(view(whole).sequences, [5, 4, 3, 2, 1]);
    assert.equal(whole.nextBefore, null);
  });

  test('when a page asks for more than 100 messages, or names no valid position, then 400; an empty conversation answers an empty page', async () => {
    // Arrange
    const collaboration = await opened();
    const path = `/collaborations/${collaboration.id}/messages`;

    for (const query of ['?limit=101', '?limit=0', '?before=0', '?before=abc', '?limit=1.5']) {
      // Act
      const answer = await asCreator()('GET', `${path}${query}`);

      // Assert
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error?.code, 'invalid-argument');
    }
    const empty = await asCreator()<MessagesPage>('GET', `${path}?limit=100`);
    assert.deepEqual(empty.body.data, { items: [], nextBefore: null });
  });
});

describe('one message', () => {
  test('when a party reads a message by its id, then both sides get it as the history shows it; another creator, another brand’s member, an unknown or malformed id get 404, a visitor 401', async () => {
    // Arrange
    const collaboration = await opened();
    const message = await sent(collaboration.id, 'Is the first draft ready?');
    const [otherCreator, otherBrand] = await Promise.all([
      registeredCreator(system),
      registeredBrand(system),
    ]);
    const path = (id: string) => `/collaborations/messages/${encodeURIComponent(id)}`;

    // Act
    const asParties = [
      await asCreator()<CollaborationMessageRecord>('GET', path(message.id)),
      await asBrand()<CollaborationMessageRecord>('GET', path(message.id)),
    ];
    const refused = [
      await asUser(system, otherCreator.accessToken)('GET', path(message.id)),
      await asUser(system, otherBrand.accessToken)('GET', path(message.id)),
      await asCreator()('GET', path(randomUUID())),
      await asCreator()('GET', path('not-a-message-id')),
      await asCreator()('GET', path(collaboration.id)),
    ];
    const visitor = await asUser(system)('GET', path(message.id));

    // Assert
    const history = await asBrand()<MessagesPage>(
      'GET',
      `/collaborations/${collaboration.id}/messages`,
    );
    for (const answer of asParties) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.data, asStored(message));
      assert.deepEqual(answer.body.data, history.body.data!.items[0]);
    }
    for (const answer of refused) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.error, {
        code: 'not-found',
        message: messages.messageNotFound,
      });
    }
    assert.equal(visitor.status, 401);
  });
});
