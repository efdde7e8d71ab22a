/**
 * The signed-in user's collaborations (GET /api/collaborations), which
 * several screens show: the header's unread badge, the /collaborations list
 * and the link from an accepted application to its collaboration. The list
 * follows the live `collaboration.updated` pushes while it is cached
 * (lib/follow-live), merged by version (lib/collaboration-live), and counts
 * each `collaboration.message` on its collaboration; a collaboration that
 * opens arrives the same way. The dashboards' summary
 * (GET /api/collaborations/summary, counted by the BFF) is read again
 * whenever a collaboration or message push arrives.
 */
import type { CollaborationsSummary } from '@raly/contracts/collaboration-summary';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import { liveEvents } from '@raly/contracts/live';
import { api, unwrapData } from '@/lib/api-client';
import { applyCollaborationToList, applyMessageToList } from '@/lib/collaboration-live';
import { followLive, type CacheLifecycle } from '@/lib/follow-live';

export const collaborationsListApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/collaborations: the caller's collaborations, newest activity first (bounded). */
    getCollaborations: build.query<CollaborationRecord[], void>({
      query: () => '/collaborations',
      transformResponse: unwrapData<CollaborationRecord[]>,
      providesTags: ['Collaborations'],
      async onCacheEntryAdded(_arg, lifecycle) {
        await followLive(lifecycle, 'Collaborations', {
          [liveEvents.collaboration]: (collaboration) =>
            lifecycle.updateCachedData((list) => applyCollaborationToList(list, collaboration)),
          [liveEvents.message]: (message) => countMessageInList(lifecycle.dispatch, message),
        });
      },
    }),
    /** GET /api/collaborations/summary: the caller's side's counts, read again on every push. */
    getCollaborationsSummary: build.query<CollaborationsSummary, void>({
      query: () => '/collaborations/summary',
      transformResponse: unwrapData<CollaborationsSummary>,
      providesTags: ['CollaborationsSummary'],
      async onCacheEntryAdded(_arg, lifecycle) {
        const readAgain = () =>
          lifecycle.dispatch(api.util.invalidateTags(['CollaborationsSummary']));
        await followLive(lifecycle, 'CollaborationsSummary', {
          [liveEvents.collaboration]: readAgain,
          [liveEvents.message]: readAgain,
        });
      },
    }),
  }),
});

export const { useGetCollaborationsQuery, useGetCollaborationsSummaryQuery } =
  collaborationsListApi;

/**
 * Counts a pushed or answered message on the cached list (lib/collaboration-live
 * `applyMessageToList`); reads the list again when a change before it is missing.
 */
export function countMessageInList(
  dispatch: CacheLifecycle['dispatch'],
  message: CollaborationMessageRecord,
): void {
  let missing = false;
  dispatch(
    collaborationsListApi.util.updateQueryData('getCollaborations', undefined, (list) => {
      const next = applyMessageToList(list, message);
      missing = next === null;
      return next === null || next === list ? list : [...next];
    }),
  );
  if (missing) dispatch(api.util.invalidateTags(['Collaborations']));
}

/** Puts a collaboration a command answered (e.g. a seen mark) into the cached list (newer version wins). */
export function mergeCollaborationIntoList(
  dispatch: CacheLifecycle['dispatch'],
  collaboration: CollaborationRecord,
): void {
  dispatch(
    collaborationsListApi.util.updateQueryData('getCollaborations', undefined, (list) =>
      applyCollaborationToList(list, collaboration),
    ),
  );
}
