/**
 * A person's notifications through the BFF (docs/api.md "Notifications"):
 * the list (a page from services/notifications), the inbox (unread count)
 * from the read model, and marking one or all read. Every inbox the service
 * answers goes through `applySnapshot` (docs/adr/0007): when newer, it is
 * stored and pushed to all of the person's tabs at once, so a read in one
 * tab clears the count in every other. The person's notification preferences
 * (categories by channel, from the service). And the e-mails' one-click unsubscribe.
 */
import { messages } from '@raly/contracts/messages';
import {
  notificationPreferencesUpdateSchema,
  notificationsQuerySchema,
  UNSUBSCRIBE_TOKEN_PATTERN,
  type InboxRecord,
  type NotificationPreferences,
  type NotificationsPage,
  type UnsubscribeRecord,
} from '@raly/contracts/notifications';
import type { Caller } from '@raly/service-kit/auth';
import type { NotificationsClient } from '../data-access/notifications-client';
import { bffErrors } from './errors';
import { answerWithNewest, type RecordStore } from './record-store';

export interface NotificationsDependencies {
  notifications: NotificationsClient;
  records: RecordStore;
}

/**
 * GET /api/notifications?cursor=&limit=: one page of the caller's items, newest first.
 * @returns the page, its inbox as the newest version known
 * @throws ZodError (400 requestProblem) for a bad cursor or limit; AppError as the service answered
 */
export async function listNotifications(
  dependencies: NotificationsDependencies,
  caller: Caller,
  query: unknown,
): Promise<NotificationsPage> {
  const parsed = notificationsQuerySchema.parse(query);
  const page = await dependencies.notifications.listNotifications(caller.accessToken, parsed);
  // Version 0 is an inbox never written: nothing to keep.
  if (page.inbox.version === 0) return page;
  return { ...page, inbox: await answerWithNewest(dependencies.records, 'inbox', page.inbox) };
}

/**
 * GET /api/notifications/inbox: the caller's inbox (unread count) from the
 * read model; when it holds none (a person never notified, or Redis lost it),
 * from the service, kept for the next read.
 * @throws AppError as the service answered (503 when it is away and nothing is stored)
 */
export async function myInbox(
  dependencies: NotificationsDependencies,
  caller: Caller,
): Promise<InboxRecord> {
  const stored = await dependencies.records.get('inbox', caller.userId);
  if (stored) return stored;
  const inbox = await dependencies.notifications.getInbox(caller.accessToken);
  if (inbox.version === 0) return inbox;
  return answerWithNewest(dependencies.records, 'inbox', inbox);
}

/**
 * POST /api/notifications/:id/read: marks one of the caller's items read.
 * @returns the inbox after it, as the newest version known (pushed to every tab when newer)
 * @throws AppError 404 notificationNotFound for an item that is not the caller's
 */
export async function markRead(
  dependencies: NotificationsDependencies,
  caller: Caller,
  notificationId: string,
): Promise<InboxRecord> {
  const inbox = await dependencies.notifications.markRead(caller.accessToken, notificationId);
  return answerWithNewest(dependencies.records, 'inbox', inbox);
}

/** POST /api/notifications/read-all. @returns the inbox after it, as the newest version known */
export async function markAllRead(
  dependencies: NotificationsDependencies,
  caller: Caller,
): Promise<InboxRecord> {
  const inbox = await dependencies.notifications.markAllRead(caller.accessToken);
  if (inbox.version === 0) return inbox;
  return answerWithNewest(dependencies.records, 'inbox', inbox);
}

/** GET /api/notifications/preferences: the caller's switches by category and channel. */
export function myPreferences(
  dependencies: NotificationsDependencies,
  caller: Caller,
): Promise<NotificationPreferences> {
  return dependencies.notifications.getPreferences(caller.accessToken);
}

/**
 * PUT /api/notifications/preferences: sets the switches the body names (the others stay).
 * @returns all of the caller's switches after the change
 * @throws ZodError (400 messages.notificationPreferencesInvalid) for a bad body, which never
 *   leaves the BFF; AppError as the service answered otherwise
 */
export function updateMyPreferences(
  dependencies: NotificationsDependencies,
  caller: Caller,
  body: unknown,
): Promise<NotificationPreferences> {
  const update = notificationPreferencesUpdateSchema.parse(body);
  return dependencies.notifications.updatePreferences(caller.accessToken, update);
}

/**
 * POST /api/unsubscribe/:token (RFC 8058 one-click, no sign-in): turns off the e-mails the
 * token names; the notifications service checks its signature. Idempotent.
 * @returns the category turned off
 * @throws AppError invalid-argument messages.unsubscribeLinkInvalid for a malformed or forged
 *   token (a malformed one never leaves the BFF); AppError as the service answered otherwise
 */
export function unsubscribe(
  dependencies: Pick<NotificationsDependencies, 'notifications'>,
  token: string,
): Promise<UnsubscribeRecord> {
  if (!UNSUBSCRIBE_TOKEN_PATTERN.test(token))
    return Promise.reject(bffErrors.invalidArgument(messages.unsubscribeLinkInvalid));
  return dependencies.notifications.unsubscribe(token);
}
