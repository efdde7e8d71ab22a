/**
 * The signed-in person's notification preferences (docs/api.md
 * "Notifications", docs/product-spec.md §12.5): GET and PUT
 * /api/notifications/preferences.
 */
import type {
  NotificationPreferences,
  NotificationPreferencesUpdate,
} from '@raly/contracts/notifications';
import { api, unwrapData } from '@/lib/api-client';

export const notificationPreferencesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/notifications/preferences: every category with its channels (true: on). */
    getNotificationPreferences: build.query<NotificationPreferences, void>({
      query: () => '/notifications/preferences',
      transformResponse: unwrapData<NotificationPreferences>,
    }),
    /** PUT /api/notifications/preferences: sets the switches named; answers all of them after. */
    updateNotificationPreferences: build.mutation<
      NotificationPreferences,
      NotificationPreferencesUpdate
    >({
      query: (body) => ({ url: '/notifications/preferences', method: 'PUT', body }),
      transformResponse: unwrapData<NotificationPreferences>,
      async onQueryStarted(_update, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data)
          dispatch(
            notificationPreferencesApi.util.upsertQueryData(
              'getNotificationPreferences',
              undefined,
              data,
            ),
          );
      },
    }),
  }),
});

export const { useGetNotificationPreferencesQuery, useUpdateNotificationPreferencesMutation } =
  notificationPreferencesApi;
