/**
 * A person's inbox over HTTP: their items newest first a page at a time by
 * cursor, marking one or all read (each change published as the inbox's next
 * snapshot). Nobody reaches another person's items (404), a visitor is
 * refused (401), and a bad cursor or limit is a 400 with the contract's message.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, beforeAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { InboxRecord, NotificationsPage } from '@raly/contracts/notifications';
import { eventually } from '@raly/test-support';
import { type RalySystem, registeredCreator } from '@raly/test-support/system';
import {
  aMessageTo,
  anApplication,
  applicationEvent,
  asUser,
  inboxSnapshotsOf,
  messageEvent,
  publish,
  useNotificationsSystem,
} from './support';

const harness = useNotificationsSystem();
let system: RalySystem;
let creator: Awaited<ReturnType<typeof registeredCreator>>;
let otherCreator: Awaited<ReturnType<typeof registeredCreator>>;

/** Tells `person` of `count` decided applications, one after the other. */
async function decisionsFor(person: { userId: string }, count: number) {
  const applications = Array.from({ length: count }, () =>
    anApplication(
      { creator: { id: person.userId, username: 'someone' }, brandId: randomUUID() },
      { version: 2, status: 'declined', decidedAt: new Date().toISOString() },
    ),
  );
  for (const application of applications) await publish(system, applicationEvent(application));
  return applications;
}

beforeAll(async () => {
  system = harness.system;
  [creator, otherCreator] = await Promise.all([
    registeredCreator(system),
    registeredCreator(system),
  ]);
});

describe('reading the inbox', () => {
  test('when a person has five items, then pages of two come newest first by cursor, each with the unread count', async () => {
    // Arrange
    const applications = await decisionsFor(creator, 5);
    const as = asUser(system, creator.accessToken);

    // Act
    const pages: NotificationsPage[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const answer = await as<NotificationsPage>('GET', `/notifications?limit=2${query}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      pages.push(answer.body.data!);
      cursor = answer.body.data!.nextCursor;
    }

    // Assert
    assert.deepEqual(
      pages.map((page) => page.items.length),
      [2, 2, 1],
    );
    assert.deepEqual(
      pages.flatMap((page) => page.items.map((item) => item.applicationId)),
      applications.map((application) => application.id).reverse(),
    );
    assert.ok(pages.every((page) => page.inbox.unread === 5 && page.inbox.id === creator.userId));
  });

  test('when the cursor or the limit is not one the list gives, then it answers 400 with the request message', async () => {
    const as = asUser(system, creator.accessToken);
    for (const query of ['cursor=abc', 'cursor=-1', 'limit=0', 'limit=51', 'limit=x']) {
      const answer = await as('GET', `/notifications?${query}`);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error?.message, messages.requestProblem, query);
    }
  });

  test('when a visitor asks, then every route answers 401', async () => {
    const visitor = asUser(system);
    for (const [method, path] of [
      ['GET', '/notifications'],
      ['GET', '/notifications/inbox'],
      ['POST', '/notifications/read-all'],
      ['POST', `/notifications/${randomUUID()}/read`],
    ] as const)
      assert.equal((await visitor(method, path)).status, 401, `${method} ${path}`);
  });
});

describe('marking read', () => {
  test('when a person marks one item read, then the unread count drops by one and the new inbox is published; again changes nothing', async () => {
    // Arrange
    const person = await registeredCreator(system);
    await decisionsFor(person, 2);
    const as = asUser(system, person.accessToken);
    const page = (await as<NotificationsPage>('GET', '/notifications')).body.data!;

    // Act
    const first = await as<InboxRecord>('POST', `/notifications/${page.items[0]!.id}/read`);
    const again = await as<InboxRecord>('POST', `/notifications/${page.items[0]!.id}/read`);

    // Assert
    assert.equal(first.status, 200);
    assert.equal(first.body.data!.unread, 1);
    assert.equal(first.body.data!.version, page.inbox.version + 1);
    assert.deepEqual(again.body.data, first.body.data);
    const read = (await as<NotificationsPage>('GET', '/notifications')).body.data!;
    assert.deepEqual(
      read.items.map((item) => item.read),
      [true, false],
    );
    await eventually('the inbox snapshot after the read', () =>
      inboxSnapshotsOf(harness, person.userId).some(
        (inbox) => inbox.version === first.body.data!.version && inbox.unread === 1,
      ),
    );
  });

  test('when a person marks all read, then the count is zero, and the inbox answers it', async () => {
    const person = await registeredCreator(system);
    await decisionsFor(person, 3);
    const as = asUser(system, person.accessToken);

    const answer = await as<InboxRecord>('POST', '/notifications/read-all');

    assert.equal(answer.status, 200);
    assert.equal(answer.body.data!.unread, 0);
    assert.deepEqual(
      (await as<InboxRecord>('GET', '/notifications/inbox')).body.data,
      answer.body.data,
    );
  });

  test("when another person marks someone's item read, then it answers 404 and the owner's count stays", async () => {
    // Arrange
    await decisionsFor(otherCreator, 1);
    const owner = asUser(system, otherCreator.accessToken);
    const item = (await owner<NotificationsPage>('GET', '/notifications')).body.data!.items[0]!;

    // Act
    const answer = await asUser(system, creator.accessToken)(
      'POST',
      `/notifications/${item.id}/read`,
    );
    const notAnId = await asUser(system, creator.accessToken)(
      'POST',
      '/notifications/not-an-id/read',
    );

    // Assert
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error?.message, messages.notificationNotFound);
    assert.equal(notAnId.status, 404);
    const inbox = (await owner<InboxRecord>('GET', '/notifications/inbox')).body.data!;
    assert.equal(inbox.unread, 1);
    const list = (
      await asUser(system, creator.accessToken)<NotificationsPage>('GET', '/notifications')
    ).body.data!;
    assert.ok(list.items.every((entry) => entry.id !== item.id));
  });

  test('when a person with no item marks all read, then the empty inbox answers', async () => {
    const person = await registeredCreator(system);
    const answer = await asUser(system, person.accessToken)<InboxRecord>(
      'POST',
      '/notifications/read-all',
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(
      [answer.body.data!.version, answer.body.data!.unread, answer.body.data!.id],
      [0, 0, person.userId],
    );
  });
});

describe('a conversation', () => {
  test('when messages come while the item of an earlier one is unread, then they add none; once it is read, the next one adds one again', async () => {
    // Arrange
    const person = await registeredCreator(system);
    const as = asUser(system, person.accessToken);
    const recipient = { id: person.userId, username: person.registration.username };
    const { collaboration } = await aMessageTo(system, recipient);
    const fromBrand = () =>
      messageEvent(collaboration, { party: 'brand', handle: collaboration.brand.username });
    const page = async () => (await as<NotificationsPage>('GET', '/notifications')).body.data!;
    const first = await page();

    // Act
    await publish(system, fromBrand(), fromBrand());
    const whileUnread = await page();
    const read = await as<InboxRecord>('POST', `/notifications/${first.items[0]!.id}/read`);
    await publish(system, fromBrand());
    const afterRead = await page();
    const { collaboration: another } = await aMessageTo(system, recipient);
    const withAnother = await page();

    // Assert
    assert.deepEqual(
      first.items.map((item) => [item.kind, item.collaborationId, item.read]),
      [['message_received', collaboration.id, false]],
    );
    assert.deepEqual(whileUnread, first, 'nothing added, the inbox unchanged');
    assert.equal(read.body.data!.unread, 0);
    assert.deepEqual(
      afterRead.items.map((item) => [item.kind, item.collaborationId, item.read]),
      [
        ['message_received', collaboration.id, false],
        ['message_received', collaboration.id, true],
      ],
    );
    assert.equal(afterRead.inbox.unread, 1);
    assert.deepEqual(
      withAnother.items.map((item) => item.collaborationId),
      [another.id, collaboration.id, collaboration.id],
    );
    assert.equal(withAnother.inbox.unread, 2);
    await eventually('every inbox snapshot published', () =>
      inboxSnapshotsOf(harness, person.userId).some(
        (inbox) => inbox.version === withAnother.inbox.version,
      ),
    );
    assert.deepEqual(
      inboxSnapshotsOf(harness, person.userId).map((inbox) => inbox.unread),
      [1, 0, 1, 2],
      'one snapshot per change: the messages while unread changed nothing',
    );
  });
});
