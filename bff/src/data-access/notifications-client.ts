/**
 * HTTP client of services/notifications (docs/api.md "services/notifications"):
 * the caller's inbox and items, marking one or all read, their notification
 * preferences, with the user's
 * bearer token forwarded unchanged, and the e-mails' one-click unsubscribe, on the kit's HTTP client. The service's
 * errors come back unchanged (status, code, message); no answer is 503
 * `unavailable`.
 */
import type {
  InboxRecord,
  NotificationPreferences,
  NotificationPreferencesUpdate,
  NotificationsPage,
  NotificationsQuery,
  UnsubscribeRecord,
} from '@raly/contracts/notifications';
import { callHttp, dataOf, type HttpCallOptions } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';
import type { Config } from '../config';

/** Every method throws AppError as the notifications service answered (its status and message). */
export interface NotificationsClient {
  /** GET /notifications?cursor=&limit= → one page of the caller's items, newest first. */
  listNotifications(accessToken: string, query: NotificationsQuery): Promise<NotificationsPage>;
  /** GET /notifications/inbox → the caller's inbox. */
  getInbox(accessToken: string): Promise<InboxRecord>;
  /** POST /notifications/:id/read → the inbox after it (404 for an item not the caller's). */
  markRead(accessToken: string, notificationId: string): Promise<InboxRecord>;
  /** POST /notifications/read-all → the inbox after it. */
  markAllRead(accessToken: string): Promise<InboxRecord>;
  /** GET /preferences → the caller's switches by category and channel. */
  getPreferences(accessToken: string): Promise<NotificationPreferences>;
  /** PUT /preferences → the caller's switches after the change (400 for a bad body). */
  updatePreferences(
    accessToken: string,
    update: NotificationPreferencesUpdate,
  ): Promise<NotificationPreferences>;
  /**
   * POST /unsubscribe/:token, without a bearer (the signed token is the authority) → the
   * category turned off (400 `invalid-argument` for a malformed or forged token).
   */
  unsubscribe(token: string): Promise<UnsubscribeRecord>;
}

/** `NotificationsQuery` as the service's query parameters (`cursor` only when set). */
function queryOf(query: NotificationsQuery): URLSearchParams {
  const search = new URLSearchParams({ limit: String(query.limit) });
  if (query.cursor !== undefined) search.set('cursor', query.cursor);
  return search;
}

/** @param config NOTIFICATIONS_URL and the upstream timeout */
export function createNotificationsClient(config: Config): NotificationsClient {
  const send = async <T>(
    method: HttpCallOptions['method'],
    path: string[],
    bearer: string | undefined,
    query?: URLSearchParams,
    json?: unknown,
  ): Promise<T> => {
    const answer = await callHttp(serviceUrl(config.NOTIFICATIONS_URL, path, query), {
      method,
      ...(bearer === undefined ? {} : { bearer }),
      ...(json !== undefined ? { json } : method === 'POST' ? { json: {} } : {}),
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      target: 'notifications',
      unreachable: 'unavailable',
    });
    return dataOf<T>(answer, 'notifications service refused the request');
  };
  return {
    listNotifications: (bearer, query) => send('GET', ['notifications'], bearer, queryOf(query)),
    getInbox: (bearer) => send('GET', ['notifications', 'inbox'], bearer),
    markRead: (bearer, id) => send('POST', ['notifications', id, 'read'], bearer),
    markAllRead: (bearer) => send('POST', ['notifications', 'read-all'], bearer),
    getPreferences: (bearer) => send('GET', ['preferences'], bearer),
    updatePreferences: (bearer, update) => send('PUT', ['preferences'], bearer, undefined, update),
    unsubscribe: (token) => send('POST', ['unsubscribe', token], undefined),
  };
}
