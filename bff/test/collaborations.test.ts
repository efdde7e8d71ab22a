/**
 * Collaborations through the BFF, in front of the real identity-profile,
 * brand, offers and collaborations services (./support/offers-suite): every
 * route as the creator, the brand's member, another creator, another
 * brand's member and a visitor; sending, a retried send, the contact-details
 * notice, the history pages and the seen mark; nobody's first name, last
 * name or e-mail in any answer.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
  MessagesPage,
} from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { aMessage, anOpenedCollaboration, sent } from './support/collaborations';
import { offersSuite } from './support/offers-suite';

const suite = offersSuite({ collaborations: true });
const { api, aBrand, onboardedCreator } = suite;

/** A collaboration of a new brand and creator, and a creator and a brand who are no party of it. */
async function aCollaborationAndStrangers() {
  const brand = await aBrand();
  const creator = await onboardedCreator(['Gaming']);
  const otherCreator = await onboardedCreator(['Gaming']);
  const otherBrand = await aBrand();
  const collaboration = await anOpenedCollaboration(suite, { brand, creator });
  return { brand, creator, otherCreator, otherBrand, collaboration };
}

describe('collaborations through the BFF', () => {
  test('when the brand accepts an application, then its creator and the brand member both list and read the collaboration, named by username and brand summary', async () => {
    // Arrange
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();

    // Act
    const asCreator = await api<CollaborationRecord>(
      'GET',
      `/api/collaborations/${collaboration.id}`,
      { token: creator.accessToken },
    );
    const asBrand = await api<CollaborationRecord>(
      'GET',
      `/api/collaborations/${collaboration.id}`,
      {
        token: brand.accessToken,
      },
    );
    const brandList = await api<CollaborationRecord[]>('GET', '/api/collaborations', {
      token: brand.accessToken,
    });

    // Assert
    for (const answer of [asCreator, asBrand]) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.id, collaboration.id);
      assert.equal(answer.body.data.creator.username, creator.username);
      assert.equal(answer.body.data.brandId, brand.brandId);
      assert.equal(answer.body.data.status, 'active');
      assert.equal(answer.body.data.messageCount, 0);
    }
    assert.equal(brandList.status, 200, JSON.stringify(brandList.body));
    assert.ok(brandList.body.data.some((record) => record.id === collaboration.id));
  });

  test('when another creator or another brand member asks for any route of the collaboration, then each answers 404 "This collaboration does not exist." and their lists leave it out', async () => {
    // Arrange
    const { otherCreator, otherBrand, collaboration } = await aCollaborationAndStrangers();
    const base = `/api/collaborations/${collaboration.id}`;

    for (const stranger of [otherCreator, otherBrand]) {
      // Act
      const answers = [
        await api('GET', base, { token: stranger.accessToken }),
        await api('GET', `${base}/messages`, { token: stranger.accessToken }),
        await api('POST', `${base}/messages`, { token: stranger.accessToken, body: aMessage() }),
        await api('POST', `${base}/seen`, { token: stranger.accessToken, body: { sequence: 1 } }),
      ];
      const list = await api<CollaborationRecord[]>('GET', '/api/collaborations', {
        token: stranger.accessToken,
      });

      // Assert
      for (const answer of answers) {
        assert.equal(answer.status, 404, JSON.stringify(answer.body));
        assert.equal(answer.body.error.message, messages.collaborationNotFound);
      }
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.ok(!list.body.data.some((record) => record.id === collaboration.id));
    }
  });

  test('when a visitor without a token calls any collaboration route, then each answers 401', async () => {
    // Arrange
    const { collaboration } = await aCollaborationAndStrangers();
    const base = `/api/collaborations/${collaboration.id}`;

    // Act
    const answers = [
      await api('GET', '/api/collaborations'),
      await api('GET', base),
      await api('GET', `${base}/messages`),
      await api('POST', `${base}/messages`, { body: aMessage() }),
      await api('POST', `${base}/seen`, { body: { sequence: 1 } }),
    ];

    // Assert
    for (const answer of answers) {
      assert.equal(answer.status, 401, JSON.stringify(answer.body));
      assert.equal(answer.body.error.code, 'unauthenticated');
    }
  });

  test('when both parties send messages, then the history pages them newest first with the sender named by side and handle, and an unknown or malformed id answers 404', async () => {
    // Arrange
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();
    const base = `/api/collaborations/${collaboration.id}`;

    // Act
    const first = await sent(suite, creator.accessToken, collaboration.id);
    const second = await sent(suite, brand.accessToken, collaboration.id, aMessage('Any day.'));
    const third = await sent(suite, creator.accessToken, collaboration.id, aMessage('Monday.'));
    const newest = await api<MessagesPage>('GET', `${base}/messages?limit=2`, {
      token: brand.accessToken,
    });
    const older = await api<MessagesPage>(
      'GET',
      `${base}/messages?limit=2&before=${newest.body.data.nextBefore}`,
      { token: creator.accessToken },
    );
    const unknown = await api('GET', `/api/collaborations/${randomUUID()}`, {
      token: creator.accessToken,
    });
    const malformed = await api('GET', '/api/collaborations/not-a-uuid/messages', {
      token: creator.accessToken,
    });

    // Assert
    assert.deepEqual(
      [first.sequence, second.sequence, third.sequence],
      [1, 2, 3],
      'sequences count from 1 per collaboration',
    );
    assert.deepEqual(second.sender, { party: 'brand', handle: collaboration.brand.username });
    assert.deepEqual(first.sender, { party: 'creator', handle: creator.username });
    assert.equal(newest.status, 200, JSON.stringify(newest.body));
    assert.deepEqual(
      newest.body.data.items.map((message) => message.id),
      [third.id, second.id],
    );
    assert.equal(older.status, 200, JSON.stringify(older.body));
    assert.deepEqual(
      older.body.data.items.map((message) => message.id),
      [first.id],
    );
    assert.equal(older.body.data.nextBefore, null);
    for (const answer of [unknown, malformed]) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.collaborationNotFound);
    }
  });

  test('when the history is asked with a limit out of 1–100 or a before that is no sequence, then the BFF answers 400 "There was a problem with your request." with the field', async () => {
    // Arrange
    const { creator, collaboration } = await aCollaborationAndStrangers();
    const base = `/api/collaborations/${collaboration.id}/messages`;

    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['before=abc', 'before'],
      ['before=0', 'before'],
    ] as const) {
      // Act
      const answer = await api('GET', `${base}?${query}`, { token: creator.accessToken });

      // Assert
      assert.equal(answer.status, 400, `${query}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error.message, messages.requestProblem);
      assert.ok(answer.body.error.fields?.[field], `${query}: ${JSON.stringify(answer.body)}`);
    }
  });

  test('when a send is retried with the same clientId, then it answers 200 with the stored message and the history holds it once', async () => {
    // Arrange
    const { creator, collaboration } = await aCollaborationAndStrangers();
    const form = aMessage('Retried over a flaky connection.');
    const first = await sent(suite, creator.accessToken, collaboration.id, form);

    // Act
    const retry = await api<CollaborationMessageRecord>(
      'POST',
      `/api/collaborations/${collaboration.id}/messages`,
      { token: creator.accessToken, body: form },
    );
    const history = await api<MessagesPage>(
      'GET',
      `/api/collaborations/${collaboration.id}/messages`,
      { token: creator.accessToken },
    );

    // Assert
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    // The stored message; only the send that counted it carries the collaboration's version.
    const { collaborationVersion, ...stored } = first;
    assert.equal(collaborationVersion, collaboration.version + 1);
    assert.deepEqual(retry.body.data, stored);
    assert.deepEqual(
      history.body.data.items.map((message) => message.clientId),
      [form.clientId],
    );
  });

  test('when a message looks like it holds an e-mail address or phone number, then it is refused 409 with the contact-details notice until its author confirms', async () => {
    // Arrange
    const { brand, collaboration } = await aCollaborationAndStrangers();
    const path = `/api/collaborations/${collaboration.id}/messages`;
    const form = aMessage('Write to me at someone (at) example (dot) com or +1 555 010 0199');

    // Act
    const unconfirmed = await api('POST', path, { token: brand.accessToken, body: form });
    const before = await api<MessagesPage>('GET', path, { token: brand.accessToken });
    const confirmed = await api<CollaborationMessageRecord>('POST', path, {
      token: brand.accessToken,
      body: { ...form, confirmContactDetails: true },
    });

    // Assert
    assert.equal(unconfirmed.status, 409, JSON.stringify(unconfirmed.body));
    assert.deepEqual(unconfirmed.body.error, {
      code: 'contact-details',
      message: messages.contactDetailsNotice,
    });
    assert.deepEqual(before.body.data.items, [], 'nothing is recorded before the confirmation');
    assert.equal(confirmed.status, 201, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.data.body, form.body);
  });

  test('when a message is empty, too long or not a form, then it answers 400 with the rule of its field', async () => {
    // Arrange
    const { creator, collaboration } = await aCollaborationAndStrangers();
    const path = `/api/collaborations/${collaboration.id}/messages`;

    // Act
    const empty = await api('POST', path, { token: creator.accessToken, body: aMessage('   ') });
    const long = await api('POST', path, {
      token: creator.accessToken,
      body: aMessage('a'.repeat(2001)),
    });
    const noClientId = await api('POST', path, {
      token: creator.accessToken,
      body: { body: 'Hello' },
    });

    // Assert
    assert.equal(empty.status, 400, JSON.stringify(empty.body));
    assert.equal(empty.body.error.fields?.body, messages.messageRequired);
    assert.equal(long.status, 400, JSON.stringify(long.body));
    assert.equal(long.body.error.fields?.body, messages.messageTooLong);
    assert.equal(noClientId.status, 400, JSON.stringify(noClientId.body));
    assert.ok(noClientId.body.error.fields?.clientId, JSON.stringify(noClientId.body));
  });

  test("when the brand member marks the creator's messages seen, then the brand's unread count clears and the creator's seen mark is untouched", async () => {
    // Arrange
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();
    await sent(suite, creator.accessToken, collaboration.id);
    await sent(suite, creator.accessToken, collaboration.id);
    const path = `/api/collaborations/${collaboration.id}`;
    const unseen = await api<CollaborationRecord>('GET', path, { token: brand.accessToken });

    // Act
    const seenAnswer = await api<CollaborationRecord>('POST', `${path}/seen`, {
      token: brand.accessToken,
      body: { sequence: 2 },
    });
    const badMark = await api('POST', `${path}/seen`, {
      token: brand.accessToken,
      body: { sequence: 'all' },
    });

    // Assert
    assert.deepEqual(unseen.body.data.unread, { brand: 2, creator: 0 });
    assert.equal(seenAnswer.status, 200, JSON.stringify(seenAnswer.body));
    assert.deepEqual(seenAnswer.body.data.unread, { brand: 0, creator: 0 });
    assert.deepEqual(seenAnswer.body.data.seenSequence, { brand: 2, creator: 0 });
    assert.equal(badMark.status, 400, JSON.stringify(badMark.body));
  });
});

describe('privacy', () => {
  test('when every answer and error of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(60);
  });
});
