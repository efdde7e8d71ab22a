/**
 * Notification preferences (docs/product-spec.md §12.5) against the real
 * stack and the SMTP catcher: `GET|PUT /preferences` read and change the
 * caller's own switches (only those turned off are stored), bad input is
 * refused 400 with the rule; in-app off makes no inbox item of the category
 * (the unread count stays right); e-mail off leaves the category out of the
 * digest, and no digest is opened when nothing else remains.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { InboxRecord, NotificationPreferences } from '@raly/contracts/notifications';
import { listMails, sleep, testStack, waitForMail } from '@raly/test-support';
import {
  aMessageTo,
  anApplication,
  applicationEvent,
  aRegisteredCreator,
  asUser,
  itemsOf,
  publish,
  useMailingSystem,
} from './support';

/** How long a mail that should not come is waited for, in ms. */
const QUIET_MS = 3000;

const allOn: NotificationPreferences = {
  offers: { in_app: true, email: true },
  applications: { in_app: true, email: true },
  collaborations: { in_app: true, email: true },
  digest: { email: true },
};

const stack = await testStack();

describe('notification preferences', () => {
  const harness = useMailingSystem({
    NOTIFICATIONS_AWAY_AFTER_MS: '1000',
    NOTIFICATIONS_DIGEST_WINDOW_MS: '600000',
    SMTP_URL: `smtp://${stack.smtp.host}:${stack.smtp.port}`,
  });

  /** A registered creator and a caller of the service with their token. */
  const aCreatorCalling = async () => {
    const creator = await aRegisteredCreator(harness.system);
    return { ...creator, call: asUser(harness.system, creator.accessToken) };
  };
  const messageTo = (creator: { id: string; username: string }) =>
    aMessageTo(harness.system, creator);

  /** The creator's application, accepted by the brand. */
  const acceptedFor = async (creator: { id: string; username: string }) => {
    const application = anApplication(
      { creator, brandId: randomUUID() },
      { version: 2, status: 'accepted', decidedAt: new Date().toISOString() },
    );
    await publish(harness.system, applicationEvent(application));
  };

  const storedOf = async (personId: string) => {
    const { rows } = await harness.system.sql.notifications!.query<{
      category: string;
      channel: string;
    }>(
      'SELECT category, channel FROM notification_preferences WHERE person_id = $1 ORDER BY 1, 2',
      [personId],
    );
    return rows;
  };

  const digestsOf = async (personId: string) => {
    const { rows } = await harness.system.sql.notifications!.query(
      'SELECT id FROM digests WHERE person_id = $1',
      [personId],
    );
    return rows;
  };

  test('when a person changes switches, then they read them back, only the ones off are stored and nobody else changes', async () => {
    // Arrange
    const [person, other] = await Promise.all([aCreatorCalling(), aCreatorCalling()]);

    // Act
    const before = await person.call<NotificationPreferences>('GET', '/preferences');
    const put = await person.call<NotificationPreferences>('PUT', '/preferences', {
      offers: { in_app: false },
      collaborations: { email: false, in_app: true },
    });
    const again = await person.call<NotificationPreferences>('PUT', '/preferences', {
      offers: { in_app: true, email: false },
    });
    const after = await person.call<NotificationPreferences>('GET', '/preferences');
    const others = await other.call<NotificationPreferences>('GET', '/preferences');

    // Assert
    assert.equal(before.status, 200);
    assert.deepEqual(before.body, { data: allOn });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body, {
      data: {
        ...allOn,
        offers: { in_app: false, email: true },
        collaborations: { in_app: true, email: false },
      },
    });
    const expected = {
      ...allOn,
      offers: { in_app: true, email: false },
      collaborations: { in_app: true, email: false },
    };
    assert.deepEqual(again.body, { data: expected });
    assert.deepEqual(after.body, { data: expected });
    assert.deepEqual(await storedOf(person.id), [
      { category: 'offers', channel: 'email' },
      { category: 'collaborations', channel: 'email' },
    ]);
    assert.deepEqual(others.body, { data: allOn });
    assert.deepEqual(await storedOf(other.id), []);
  });

  test('when the body names an unknown switch, a value that is not a boolean or nothing, then 400 with the rule and nothing changes', async () => {
    // Arrange
    const person = await aCreatorCalling();
    const bodies = [
      {},
      { offers: {} },
      { offers: { sms: true } },
      { marketing: { email: false } },
      { digest: { in_app: false } },
      { collaborations: { email: 'no' } },
      { collaborations: null },
      [{ category: 'offers', channel: 'email', enabled: false }],
    ];

    // Act
    const answers = await Promise.all(
      bodies.map((body) => person.call('PUT', '/preferences', body)),
    );
    const visitor = await asUser(harness.system)('GET', '/preferences');

    // Assert
    for (const [index, answer] of answers.entries()) {
      assert.equal(answer.status, 400, `${JSON.stringify(bodies[index])}: ${answer.status}`);
      assert.equal(answer.body.error?.code, 'invalid-argument');
      assert.equal(answer.body.error?.message, messages.notificationPreferencesInvalid);
    }
    assert.equal(visitor.status, 401);
    assert.deepEqual(await storedOf(person.id), []);
  });

  test('when a person turned in-app off for collaborations, then a message makes no item while an application still does, and the unread count is right', async () => {
    // Arrange
    const person = await aCreatorCalling();
    const off = await person.call('PUT', '/preferences', { collaborations: { in_app: false } });

    // Act
    await messageTo(person);
    await acceptedFor(person);
    const inbox = await person.call<InboxRecord>('GET', '/notifications/inbox');

    // Assert
    assert.equal(off.status, 200);
    assert.deepEqual(
      (await itemsOf(harness.system, person.id)).map((item) => item.kind),
      ['application_accepted'],
    );
    assert.equal(inbox.body.data?.unread, 1);
    assert.equal(inbox.body.data?.latest.length, 1);
  });

  test('when a person turned e-mail off for collaborations, then their digest leaves messages out, and with nothing else no digest is opened', async () => {
    // Arrange: never seen, so both are away
    const [mixed, messagesOnly] = await Promise.all([aCreatorCalling(), aCreatorCalling()]);
    for (const person of [mixed, messagesOnly]) {
      const off = await person.call('PUT', '/preferences', { collaborations: { email: false } });
      assert.equal(off.status, 200, JSON.stringify(off.body));
    }

    // Act
    await Promise.all([messageTo(mixed), acceptedFor(mixed), messageTo(messagesOnly)]);
    const mail = await waitForMail(mixed.registration.email, { timeoutMs: 45_000 });
    await sleep(QUIET_MS);

    // Assert
    assert.equal(mail.subject, 'You have 1 unread notification on Raly');
    assert.match(mail.text, /an application accepted/);
    assert.doesNotMatch(mail.text, /message/);
    const kinds = async (personId: string) =>
      (await itemsOf(harness.system, personId)).map((item) => item.kind).sort();
    assert.deepEqual(await kinds(mixed.id), ['application_accepted', 'message_received']);
    assert.deepEqual(await kinds(messagesOnly.id), ['message_received']);
    assert.deepEqual(await listMails(messagesOnly.registration.email), []);
    assert.deepEqual(await digestsOf(messagesOnly.id), []);
  });
});
