/**
 * The shared shapes of notifications (`@raly/contracts/notifications`): the
 * list's query answers a bad cursor or limit with the request message, an
 * inbox snapshot travels in a valid envelope, and an item has no field for
 * a name, an e-mail or a phone number.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { eventTypes, parseEnvelope, topics } from '../src/events';
import { messages } from '../src/messages';
import {
  emptyInbox,
  notificationSchema,
  notificationsQuerySchema,
  NOTIFICATIONS_PAGE_SIZE_DEFAULT,
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
