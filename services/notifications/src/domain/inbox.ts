/**
 * A person's inbox over HTTP (docs/api.md "services/notifications"): their
 * items newest first a page at a time, marking one or all read. A caller
 * only ever reaches their own items; another person's item is "not found".
 */
import {
  notificationsQuerySchema,
  type InboxRecord,
  type NotificationsPage,
} from '@raly/contracts/notifications';
import { messages } from '@raly/contracts/messages';
import type { Caller } from '@raly/service-kit/auth';
import { AppError } from '@raly/service-kit/errors';
import type { NotificationsDependencies } from './dependencies';
import { inboxUpdatedEvent } from './events';

const notificationNotFound = () => new AppError('not-found', messages.notificationNotFound);

const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/**
 * `GET /notifications?cursor=&limit=`: one page of the caller's items, newest first.
 * @throws ZodError (400 requestProblem) for a bad cursor or limit
 */
export function myNotifications(
  dependencies: NotificationsDependencies,
  caller: Caller,
  query: unknown,
): Promise<NotificationsPage> {
  return dependencies.inboxes.page(caller.userId, notificationsQuerySchema.parse(query));
}

/** `GET /notifications/inbox`: the caller's inbox (unread count, version). */
export function myInbox(
  dependencies: NotificationsDependencies,
  caller: Caller,
): Promise<InboxRecord> {
  return dependencies.inboxes.inbox(caller.userId);
}

/**
 * `POST /notifications/:id/read`: marks one of the caller's items read.
 * @returns the inbox after it (unchanged when it was read already)
 * @throws AppError not-found messages.notificationNotFound (no such item of the caller's)
 */
export async function markNotificationRead(
  dependencies: NotificationsDependencies,
  caller: Caller,
  notificationId: string,
): Promise<InboxRecord> {
  if (!isUuid(notificationId)) throw notificationNotFound();
  const inbox = await dependencies.inboxes.markRead(
    caller.userId,
    notificationId,
    inboxUpdatedEvent,
  );
  if (!inbox) throw notificationNotFound();
  return inbox;
}

/** `POST /notifications/read-all`: marks every item of the caller's read. @returns the inbox after it */
export function markAllNotificationsRead(
  dependencies: NotificationsDependencies,
  caller: Caller,
): Promise<InboxRecord> {
  return dependencies.inboxes.markAllRead(caller.userId, inboxUpdatedEvent);
}
