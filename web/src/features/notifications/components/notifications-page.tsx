/**
 * /notifications: the signed-in person's notifications, newest first, a page
 * at a time ("Load more" follows the cursor), each linking to what it is
 * about (the outcome of a report adds its words on a line of its own).
 * Opening one marks it read; "Mark as read" and "Mark all as read" do so in
 * place. The counts follow live (lib/notifications-api), so a read in
 * another tab shows here too.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import type { Notification } from '@raly/contracts/notifications';
import {
  useGetInboxQuery,
  useGetNotificationsQuery,
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
} from '@/lib/notifications-api';
import { Button, focusRing } from '@/components/ui/button';
import { Notification as Notice } from '@/components/ui/notification';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import { notificationDetail, notificationLink, notificationText } from '../utils/notification-text';

function NotificationItem({ item }: { item: Notification }) {
  const [markRead, { isLoading }] = useMarkNotificationReadMutation();
  const text = notificationText(item);
  const link = notificationLink(item);
  const detail = notificationDetail(item);
  const read = () => {
    if (!item.read) void markRead(item.id);
  };
  return (
    <li
      data-testid="notification"
      data-read={item.read}
      className={`flex items-start justify-between gap-4 px-4 py-3 ${item.read ? 'bg-white' : 'bg-indigo-50'}`}
    >
      <div className="min-w-0">
        {link ? (
          <Link
            to={link}
            onClick={read}
            className={`rounded-sm text-sm text-slate-900 hover:underline ${item.read ? '' : 'font-semibold'} ${focusRing}`}
          >
            {text}
          </Link>
        ) : (
          <p className="text-sm text-slate-900">{text}</p>
        )}
        {detail && (
          <p data-testid="notification-detail" className="mt-0.5 text-sm text-slate-700">
            {detail}
          </p>
        )}
        <p className="mt-0.5 text-xs text-slate-700">
          <time dateTime={item.created}>{new Date(item.created).toLocaleString()}</time>
          {!item.read && <span className="sr-only"> (unread)</span>}
        </p>
      </div>
      {!item.read && (
        <Button variant="ghost" busy={isLoading} onClick={read} className="shrink-0 text-xs">
          Mark as read
        </Button>
      )}
    </li>
  );
}

/** One page of items (the first when `cursor` is null). */
function NotificationsChunk({ cursor }: { cursor: string | null }) {
  const { data } = useGetNotificationsQuery(cursor);
  return data?.items.map((item) => <NotificationItem key={item.id} item={item} />) ?? null;
}

export function NotificationsPage() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const first = useGetNotificationsQuery(null);
  const last = useGetNotificationsQuery(cursors.at(-1)!);
  const { data: inbox } = useGetInboxQuery();
  const [markAll, markingAll] = useMarkAllNotificationsReadMutation();
  const unread = inbox?.unread ?? first.data?.inbox.unread ?? 0;
  const nextCursor = last.data?.nextCursor ?? null;

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <div className="flex items-center justify-between gap-4">
        <PageHeading>Notifications</PageHeading>
        <Button
          variant="secondary"
          busy={markingAll.isLoading}
          disabled={unread === 0}
          onClick={() => void markAll()}
        >
          Mark all as read
        </Button>
      </div>
      <p className="mt-1 text-sm text-slate-600" data-testid="unread-summary">
        {unread === 0 ? 'Everything is read.' : `${unread} unread`}
      </p>
      {first.isLoading && <Spinner label="Loading" className="mt-6 size-6" />}
      {first.isError && (
        <div className="mt-6">
          <Notice>{messages.genericProblem}</Notice>
        </div>
      )}
      {first.data && first.data.items.length === 0 && (
        <p className="mt-6 text-sm text-slate-600">
          Nothing yet. New offers, applications and the work of your collaborations show up here.
        </p>
      )}
      {first.data && first.data.items.length > 0 && (
        <ul
          aria-label="Notifications"
          className="mt-6 divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200"
        >
          {cursors.map((cursor) => (
            <NotificationsChunk key={cursor ?? 'newest'} cursor={cursor} />
          ))}
        </ul>
      )}
      {nextCursor && (
        <div className="mt-4 flex justify-center">
          <Button
            variant="secondary"
            busy={last.isFetching}
            onClick={() => setCursors((list) => [...list, nextCursor])}
          >
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}
