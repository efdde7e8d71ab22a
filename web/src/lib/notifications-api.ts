/**
 * The signed-in person's notifications (docs/api.md "Notifications"): the
 * inbox (GET /api/notifications/inbox, its unread count, for the header's
 * bell), a page of items by cursor (GET /api/notifications), and marking one
 * or all read. The inbox follows the live `notifications.updated` pushes while
 * it is cached (lib/follow-live), the higher version winning; a newer inbox
 * reads the cached pages again, so an item read in another tab shows read here.
 */
import { liveEvents } from '@raly/contracts/live';
import type { InboxRecord, NotificationsPage } from '@raly/contracts/notifications';
import { api, unwrapData } from '@/lib/api-client';
import { followLive, type CacheLifecycle } from '@/lib/follow-live';

/** The newer of two inboxes (a push and a command's answer may arrive in either order). */
export const newerInbox = (current: InboxRecord | undefined, next: InboxRecord): InboxRecord =>
  current && current.version >= next.version ? current : next;

export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/notifications/inbox: the unread count, followed live. */
    getInbox: build.query<InboxRecord, void>({
      query: () => '/notifications/inbox',
      transformResponse: unwrapData<InboxRecord>,
      providesTags: ['Inbox'],
      async onCacheEntryAdded(_arg, lifecycle) {
        await followLive(lifecycle, 'Inbox', {
          [liveEvents.inbox]: (inbox) => {
            let newer = false;
            lifecycle.updateCachedData((current) => {
              if (current.version >= inbox.version) return current;
              newer = true;
              return inbox;
            });
            if (newer) lifecycle.dispatch(api.util.invalidateTags(['Notifications']));
          },
        });
      },
    }),
    /** GET /api/notifications?cursor=: one page, newest first (null: the first page). */
    getNotifications: build.query<NotificationsPage, string | null>({
      query: (cursor) =>
        cursor ? `/notifications?cursor=${encodeURIComponent(cursor)}` : '/notifications',
      transformResponse: unwrapData<NotificationsPage>,
      providesTags: ['Notifications'],
      async onQueryStarted(_cursor, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data && data.inbox.version > 0) mergeInbox(dispatch, data.inbox);
      },
    }),
    /** POST /api/notifications/:id/read: the inbox after it. */
    markNotificationRead: build.mutation<InboxRecord, string>({
      query: (id) => ({ url: `/notifications/${encodeURIComponent(id)}/read`, method: 'POST' }),
      transformResponse: unwrapData<InboxRecord>,
      invalidatesTags: ['Notifications'],
      async onQueryStarted(_id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) mergeInbox(dispatch, data);
      },
    }),
    /** POST /api/notifications/read-all: the inbox after it. */
    markAllNotificationsRead: build.mutation<InboxRecord, void>({
      query: () => ({ url: '/notifications/read-all', method: 'POST' }),
      transformResponse: unwrapData<InboxRecord>,
      invalidatesTags: ['Notifications'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) mergeInbox(dispatch, data);
      },
    }),
  }),
});

export const {
  useGetInboxQuery,
  useGetNotificationsQuery,
  useMarkNotificationReadMutation,
  useMarkAllNotificationsReadMutation,
} = notificationsApi;

/** Puts an inbox a command answered into the cached one (newer version wins). */
function mergeInbox(dispatch: CacheLifecycle['dispatch'], inbox: InboxRecord): void {
  dispatch(
    notificationsApi.util.updateQueryData('getInbox', undefined, (current) =>
      newerInbox(current, inbox),
    ),
  );
}
