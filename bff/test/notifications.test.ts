/**
 * Notifications through the BFF in front of the real services
 * (./support/offers-suite): a creator's application reaches the brand
 * member's inbox and every open tab of theirs live (`notifications.updated`
 * with the unread count); reading in one tab clears the count in the other;
 * nobody else reads or marks those items, a visitor is refused, marking read
 * is rate-limited, and no answer or push carries a name or an e-mail. A
 * person reads and changes their notification preferences, as often as
 * RATE_LIMIT_UPDATE_PREFERENCES_PER_USER allows.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import {
  defaultNotificationPreferences,
  type InboxRecord,
  type NotificationPreferences,
  type NotificationsPage,
} from '@raly/contracts/notifications';
import type { ApplicationRecord } from '@raly/contracts/offers';
import { eventually } from '@raly/test-support';
import { anApplicationForm, offersSuite } from './support/offers-suite';
import { assertTooManyRequests, statuses } from './support/rate-limits';
import { receivedOf, type RecordingSocket } from './support/sockets';

const suite = offersSuite({ notifications: true, tight: true });
const { api, live, aBrand, onboardedCreator, seen } = suite;

/** A brand whose member notifications knows (their user event handled). */
async function aKnownBrand() {
  const brand = await aBrand();
  await eventually(`notifications knows ${brand.userId}`, async () => {
    const { rows } = await suite.system.sql.notifications!.query(
      'SELECT 1 FROM people WHERE id = $1 AND brand_id IS NOT NULL',
      [brand.userId],
    );
    return rows.length === 1;
  });
  return brand;
}

/** A creator's application to a fresh offer of `brand`, through the BFF. */
async function anApplicationTo(brand: { accessToken: string }, creatorToken: string) {
  const offer = await suite.anOffer(brand);
  const answer = await api<ApplicationRecord>('POST', `/api/offers/${offer.id}/applications`, {
    token: creatorToken,
    body: anApplicationForm,
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data;
}

/** The inbox pushes a socket received. */
const inboxPushes = (socket: RecordingSocket) => {
  const pushes = receivedOf(socket, 'notifications.updated');
  seen.push({ what: 'inbox pushes', body: pushes });
  return pushes;
};

describe('the inbox live', () => {
  test("when a creator applies, then each tab of the brand member gets the unread count live, the list names the creator by username, and reading in one tab clears the other's count", async () => {
    // Arrange
    const brand = await aKnownBrand();
    const creator = await onboardedCreator(['Gaming']);
    const tabs = [await live(brand.accessToken), await live(brand.accessToken)];

    // Act
    const application = await anApplicationTo(brand, creator.accessToken);

    // Assert: the count reaches both tabs
    for (const tab of tabs)
      await eventually('the inbox pushed with one unread', () =>
        inboxPushes(tab).some((inbox) => inbox.unread === 1 && inbox.id === brand.userId),
      );
    const count = await api<InboxRecord>('GET', '/api/notifications/inbox', {
      token: brand.accessToken,
    });
    assert.equal(count.body.data.unread, 1);
    const list = await api<NotificationsPage>('GET', '/api/notifications', {
      token: brand.accessToken,
    });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const [item] = list.body.data.items;
    assert.equal(item?.kind, 'application_received');
    assert.equal(item?.applicationId, application.id);
    assert.equal(item?.counterpart, creator.username);

    // Act: read in one tab (its POST), the other tab hears it
    const read = await api<InboxRecord>('POST', `/api/notifications/${item!.id}/read`, {
      token: brand.accessToken,
    });

    // Assert
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.data.unread, 0);
    for (const tab of tabs)
      await eventually('the inbox pushed with nothing unread', () =>
        inboxPushes(tab).some((inbox) => inbox.version === read.body.data.version),
      );
    assert.equal(inboxPushes(tabs[1]!).at(-1)!.unread, 0);

    // A tab opened later gets the current inbox as its socket joins (catch-up).
    const later = await live(brand.accessToken);
    await eventually('the current inbox on a new socket', () =>
      inboxPushes(later).some((inbox) => inbox.version === read.body.data.version),
    );
  });
});

describe('notification preferences', () => {
  test('when a person turns switches off through the BFF, then they read them back, another person keeps theirs, a bad body is 400 and a visitor 401', async () => {
    // Arrange
    const [creator, other] = [
      await onboardedCreator(['Gaming']),
      await onboardedCreator(['Gaming']),
    ];
    const token = creator.accessToken;

    // Act
    const before = await api<NotificationPreferences>('GET', '/api/notifications/preferences', {
      token,
    });
    const put = await api<NotificationPreferences>('PUT', '/api/notifications/preferences', {
      token,
      body: { applications: { in_app: false }, digest: { email: false } },
    });
    const after = await api<NotificationPreferences>('GET', '/api/notifications/preferences', {
      token,
    });
    const others = await api<NotificationPreferences>('GET', '/api/notifications/preferences', {
      token: other.accessToken,
    });
    const bad = await api('PUT', '/api/notifications/preferences', {
      token,
      body: { applications: { sms: true } },
    });
    const visitor = await api('GET', '/api/notifications/preferences');

    // Assert
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.deepEqual(before.body.data, defaultNotificationPreferences());
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const expected = {
      ...defaultNotificationPreferences(),
      applications: { in_app: false, email: true },
      digest: { email: false },
    };
    assert.deepEqual(put.body.data, expected);
    assert.deepEqual(after.body.data, expected);
    assert.deepEqual(others.body.data, defaultNotificationPreferences());
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error?.code, 'invalid-argument');
    assert.equal(bad.body.error?.message, messages.notificationPreferencesInvalid);
    assert.equal(visitor.status, 401);
  });

  test('when a person changes preferences more often than RATE_LIMIT_UPDATE_PREFERENCES_PER_USER allows, then the next change answers 429 with Retry-After and stores nothing, while another person still changes theirs', async () => {
    // Arrange: the tight BFF allows 2 changes per user and hour
    const [creator, other] = [
      await onboardedCreator(['Gaming']),
      await onboardedCreator(['Gaming']),
    ];
    const on = suite.tightBff;
    const change = (token: string, body: unknown) =>
      api<NotificationPreferences>('PUT', '/api/notifications/preferences', { token, body, on });
    const allowed = await statuses(2, (index) =>
      change(creator.accessToken, { offers: { email: index === 0 } }),
    );
    assert.deepEqual(allowed, [200, 200]);

    // Act
    const refused = await change(creator.accessToken, { digest: { email: false } });
    const stored = await api<NotificationPreferences>('GET', '/api/notifications/preferences', {
      token: creator.accessToken,
    });
    const others = await change(other.accessToken, { digest: { email: false } });

    // Assert
    assertTooManyRequests(refused, 3600);
    assert.deepEqual(stored.body.data, {
      ...defaultNotificationPreferences(),
      offers: { in_app: true, email: false },
    });
    assert.equal(others.status, 200, JSON.stringify(others.body));
    assert.deepEqual(others.body.data.digest, { email: false });
  });
});

describe('privacy and limits', () => {
  test("when another person lists or marks someone's items, then they see none of them and marking answers 404; a visitor gets 401", async () => {
    // Arrange
    const brand = await aKnownBrand();
    const creator = await onboardedCreator(['Gaming']);
    await anApplicationTo(brand, creator.accessToken);
    const item = await eventually('the brand member notified', async () => {
      const list = await api<NotificationsPage>('GET', '/api/notifications', {
        token: brand.accessToken,
      });
      return list.body.data.items[0];
    });

    // Act
    const mark = await api('POST', `/api/notifications/${item.id}/read`, {
      token: creator.accessToken,
    });
    const theirs = await api<NotificationsPage>('GET', '/api/notifications', {
      token: creator.accessToken,
    });
    const visitor = await Promise.all(
      [
        ['GET', '/api/notifications'],
        ['GET', '/api/notifications/inbox'],
        ['POST', '/api/notifications/read-all'],
        ['POST', `/api/notifications/${randomUUID()}/read`],
      ].map(([method, path]) => api(method!, path!)),
    );

    // Assert
    assert.equal(mark.status, 404, JSON.stringify(mark.body));
    assert.ok(theirs.body.data.items.every((entry) => entry.id !== item.id));
    assert.deepEqual(
      visitor.map((answer) => answer.status),
      [401, 401, 401, 401],
    );
    const owner = await api<InboxRecord>('GET', '/api/notifications/inbox', {
      token: brand.accessToken,
    });
    assert.equal(owner.body.data.unread, 1);
  });

  test('when the query is not one the list gives, then it answers 400', async () => {
    const creator = await onboardedCreator(['Gaming']);
    for (const query of ['limit=0', 'limit=1000', 'cursor=x'])
      assert.equal(
        (await api('GET', `/api/notifications?${query}`, { token: creator.accessToken })).status,
        400,
        query,
      );
  });

  test('when a person marks read more often than RATE_LIMIT_MARK_READ_PER_USER allows, then the next answers 429', async () => {
    const creator = await onboardedCreator(['Gaming']);
    const on = suite.tightBff;
    for (let attempt = 0; attempt < 2; attempt++)
      assert.equal(
        (await api('POST', '/api/notifications/read-all', { token: creator.accessToken, on }))
          .status,
        200,
      );

    const third = await api('POST', '/api/notifications/read-all', {
      token: creator.accessToken,
      on,
    });

    assert.equal(third.status, 429, JSON.stringify(third.body));
  });

  test('when every answer and push of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(10);
  });
});
