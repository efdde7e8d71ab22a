/**
 * The shared shapes of notifications (`@raly/contracts/notifications`): the
 * list's query answers a bad cursor or limit with the request message, an
 * inbox snapshot travels in a valid envelope, and an item has no field for
 * a name, an e-mail or a phone number. Every kind belongs to a preference
 * category; a preferences update names known switches with booleans only.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { eventTypes, parseEnvelope, topics } from '../src/events';
import { messages } from '../src/messages';
import {
  CATEGORY_OF_KIND,
  defaultNotificationPreferences,
  emptyInbox,
  NOTIFICATION_KINDS,
  notificationPreferencesUpdateSchema,
  notificationSchema,
  notificationsQuerySchema,
  NOTIFICATIONS_PAGE_SIZE_DEFAULT,
  switchesOf,
} from '../src/notifications';

describe('the notifications query', () => {
  test('when nothing is given, then it starts from the newest with the default page size', () => {
    assert.deepEqual(notificationsQuerySchema.parse({}), {
      limit: NOTIFICATIONS_PAGE_SIZE_DEFAULT,
    });
  });

  test('when the cursor is not a positive number or the limit is out of range, then it answers the request message', () => {
    for (const query of [{ cursor: 'abc' }, { cursor: '0' }, { limit: '0' }, { limit: '51' }]) {
      const result = notificationsQuerySchema.safeParse(query);
      assert.equal(result.success, false, JSON.stringify(query));
      assert.equal(result.error?.issues[0]?.message, messages.requestProblem);
    }
  });
});

describe('the inbox snapshot and its items', () => {
  test('when an inbox snapshot is published, then its envelope parses on notifications.inbox.v1', () => {
    const inbox = { ...emptyInbox(randomUUID()), version: 1, unread: 1, latest: [randomUUID()] };
    const envelope = parseEnvelope(
      JSON.stringify({
        id: randomUUID(),
        type: eventTypes.inboxUpdated,
        source: 'raly/notifications',
        subject: inbox.id,
        time: new Date().toISOString(),
        version: 1,
        data: inbox,
      }),
    );
    assert.deepEqual(envelope.data, inbox);
    assert.equal(topics.notificationsInbox, 'notifications.inbox.v1');
  });

  test('when an item is described, then it has no field for a name, an e-mail or a phone number', () => {
    const fields = Object.keys(notificationSchema.shape);
    for (const secret of ['firstName', 'lastName', 'email', 'phoneNumber', 'body'])
      assert.ok(!fields.includes(secret), secret);
  });
});

describe('the notification preferences', () => {
  test('when every kind is looked up, then each has a category that has both channels, but the outcome of a report, which cannot be turned off', () => {
    const preferences = defaultNotificationPreferences();
    for (const kind of NOTIFICATION_KINDS) {
      const category = CATEGORY_OF_KIND[kind];
      if (kind === 'report_resolved') assert.equal(category, null);
      else assert.deepEqual(preferences[category!], { in_app: true, email: true }, kind);
    }
    assert.equal(CATEGORY_OF_KIND.offer_matched, 'offers');
    assert.equal(CATEGORY_OF_KIND.application_withdrawn, 'applications');
    assert.equal(CATEGORY_OF_KIND.auto_approval_due, 'collaborations');
  });

  test('when an update names switches, then they come out in a stable order, and the whole defaults are every switch on', () => {
    const update = notificationPreferencesUpdateSchema.parse({
      digest: { email: false },
      offers: { email: true, in_app: false },
    });

    assert.deepEqual(switchesOf(update), [
      { category: 'offers', channel: 'in_app', enabled: false },
      { category: 'offers', channel: 'email', enabled: true },
      { category: 'digest', channel: 'email', enabled: false },
    ]);
    assert.equal(switchesOf(defaultNotificationPreferences()).length, 7);
    assert.ok(switchesOf(defaultNotificationPreferences()).every((change) => change.enabled));
  });

  test('when an update is empty, names an unknown switch or a value that is not a boolean, then it answers the rule', () => {
    for (const update of [
      {},
      { offers: {} },
      { offers: { push: true } },
      { marketing: { email: false } },
      { digest: { in_app: true } },
      { applications: { email: 1 } },
      'offers',
    ]) {
      const result = notificationPreferencesUpdateSchema.safeParse(update);
      assert.equal(result.success, false, JSON.stringify(update));
      assert.equal(result.error?.issues[0]?.message, messages.notificationPreferencesInvalid);
    }
  });
});
