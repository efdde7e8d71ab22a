/**
 * The header's bell and the /notifications page: the bell counts the unread
 * items and follows the live `notifications.updated` pushes (a newer inbox
 * wins, an older one is ignored); the page lists items newest first, each
 * linking to what it is about, pages on with "Load more", and marks one or
 * all read.
 */
import assert from 'node:assert/strict';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, test, vi } from 'vitest';
import type { InboxRecord, Notification, NotificationsPage } from '@raly/contracts/notifications';
import { aUserRecord } from '@raly/test-support/records';
import { NotificationsBell } from '@/components/layout/notifications-bell';
import { NotificationsPage as NotificationsScreen } from '@/features/notifications/components/notifications-page';
import { live } from './fake-live';
import { answerBff, jsonAnswer, renderInApp, type BffCall } from './render';

// One fake socket for the live pushes, and a signed-in session so that queries follow it.
vi.mock('@/lib/live-socket', () =>
  import('./fake-live').then(({ live }) => ({ liveSocket: () => live.socket })),
);
vi.mock('@/lib/session', async (original) => ({
  ...(await original<typeof import('@/lib/session')>()),
  getSessionSnapshot: () => ({ status: 'signed-in', userId: 'user-1' }),
}));

const anInbox = (overrides: Partial<InboxRecord> = {}): InboxRecord => ({
  id: 'user-1',
  version: 3,
  unread: 2,
  latest: [],
  updated: new Date().toISOString(),
  ...overrides,
});

let counter = 0;
const anItem = (overrides: Partial<Notification> = {}): Notification => ({
  id: `item-${++counter}`,
  kind: 'application_received',
  offerId: 'offer-1',
  applicationId: 'application-1',
  collaborationId: null,
  title: 'Launch video',
  counterpart: 'gamerjane',
  report: null,
  read: false,
  created: new Date().toISOString(),
  ...overrides,
});

/** Answers GET /api/me, the inbox, the pages (by cursor) and the marks. */
function answerWith(inbox: InboxRecord, pages: Record<string, NotificationsPage>) {
  const me = { user: aUserRecord({ id: 'user-1' }), brand: null };
  return answerBff((call: BffCall) => {
    if (call.path === '/api/me') return jsonAnswer(200, { data: me });
    if (call.path === '/api/notifications/inbox') return jsonAnswer(200, { data: inbox });
    if (call.path === '/api/notifications') {
      const cursor = new URLSearchParams(call.search ?? '').get('cursor') ?? 'first';
      return jsonAnswer(200, { data: pages[cursor] });
    }
    if (call.method === 'POST')
      return jsonAnswer(200, { data: { ...inbox, version: inbox.version + 1, unread: 0 } });
    return jsonAnswer(404, {});
  });
}

describe('the bell', () => {
  test('when the person has unread items, then it counts them, and a newer inbox pushed live changes the count while an older one does not', async () => {
    answerWith(anInbox({ unread: 2 }), {});

    renderInApp(<NotificationsBell className={() => ''} />);

    const badge = await screen.findByTestId('notifications-badge');
    assert.equal(badge.textContent, '2 unread');
    assert.equal(
      screen.getByRole('link', { name: /Notifications/ }).getAttribute('href'),
      '/notifications',
    );
    await waitFor(() => assert.ok(live.listeners.get('notifications.updated')?.size));
    act(() => live.push('notifications.updated', anInbox({ version: 4, unread: 5 })));
    await waitFor(() =>
      assert.equal(screen.getByTestId('notifications-badge').textContent, '5 unread'),
    );
    act(() => live.push('notifications.updated', anInbox({ version: 2, unread: 9 })));
    assert.equal(screen.getByTestId('notifications-badge').textContent, '5 unread');
    act(() => live.push('notifications.updated', anInbox({ version: 5, unread: 0 })));
    await waitFor(() => assert.equal(screen.queryByTestId('notifications-badge'), null));
  });
});

describe('the notifications page', () => {
  test('when it opens, then items come newest first with a link each, and "Load more" appends the next page', async () => {
    const newest = anItem({ kind: 'message_received', collaborationId: 'collaboration-1' });
    const older = anItem({ kind: 'offer_matched', read: true, counterpart: 'Acme' });
    const oldest = anItem({ kind: 'application_accepted', counterpart: 'Acme' });
    const inbox = anInbox({ unread: 2 });
    const calls = answerWith(inbox, {
      first: { items: [newest, older], nextCursor: '17', inbox },
      '17': { items: [oldest], nextCursor: null, inbox },
    });

    renderInApp(<NotificationsScreen />);

    const list = await screen.findByRole('list', { name: 'Notifications' });
    const links = () =>
      within(list)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]);
    assert.deepEqual(links(), [
      ['New message from gamerjane about “Launch video”', '/collaborations/collaboration-1'],
      ['New offer in your interests: “Launch video” by Acme', '/offers/offer-1'],
    ]);
    assert.equal(screen.getByTestId('unread-summary').textContent, '2 unread');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => assert.equal(links().length, 3));
    assert.deepEqual(links()[2], [
      'Acme accepted your application to “Launch video”',
      '/offers/offer-1',
    ]);
    assert.ok(calls.some((call) => call.search === '?cursor=17'));
    assert.equal(screen.queryByRole('button', { name: 'Load more' }), null);
  });

  test("when a report of the person was resolved, then its item names what they reported, shows the outcome's words and leads to Settings → Reports", async () => {
    const resolved = anItem({
      kind: 'report_resolved',
      offerId: null,
      applicationId: null,
      title: '@gamerjane',
      counterpart: null,
      report: { itemKind: 'creator', outcome: 'suspension' },
    });
    const inbox = anInbox({ unread: 1 });
    answerWith(inbox, { first: { items: [resolved], nextCursor: null, inbox } });

    renderInApp(<NotificationsScreen />);

    const list = await screen.findByRole('list', { name: 'Notifications' });
    const link = within(list).getByRole('link');
    assert.equal(link.textContent, 'Your report of “@gamerjane” was reviewed');
    assert.equal(link.getAttribute('href'), '/settings/reports');
    assert.equal(
      within(list).getByTestId('notification-detail').textContent,
      'Reviewed: the account was suspended',
    );
  });

  test('when the person marks one read and then all, then the BFF is asked for each and the summary says everything is read', async () => {
    const item = anItem();
    const inbox = anInbox({ unread: 1 });
    const calls = answerWith(inbox, { first: { items: [item], nextCursor: null, inbox } });

    renderInApp(<NotificationsScreen />);

    fireEvent.click(await screen.findByRole('button', { name: 'Mark as read' }));
    await waitFor(() =>
      assert.ok(calls.some((call) => call.path === `/api/notifications/${item.id}/read`)),
    );
    await waitFor(() =>
      assert.equal(screen.getByTestId('unread-summary').textContent, 'Everything is read.'),
    );
    assert.ok(
      (screen.getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled,
    );
  });

  test('when nothing has happened yet, then it says so and there is nothing to mark', async () => {
    const inbox = anInbox({ unread: 0, version: 0 });
    answerWith(inbox, { first: { items: [], nextCursor: null, inbox } });

    renderInApp(<NotificationsScreen />);

    await screen.findByText(/Nothing yet/);
    assert.ok(
      (screen.getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled,
    );
  });
});
