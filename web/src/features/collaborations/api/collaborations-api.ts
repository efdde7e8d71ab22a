/**
 * One collaboration and its conversation through the BFF (docs/api.md
 * "Collaborations"): the record, the message history paged newest first
 * (an RTK Query infinite query whose next page is the older one), sending a
 * message and marking the conversation seen. The record follows
 * `collaboration.updated` and counts each `collaboration.message` (no
 * snapshot is pushed for a message), the history takes each message, while
 * cached (lib/follow-live); answers are merged at once, so the tab that
 * acted shows the change before the push arrives, and only once.
 */
import {
  countedBy,
  type CollaborationMessageRecord,
  type CollaborationRecord,
  type MessagesPage,
  type SendMessage,
} from '@raly/contracts/collaborations';
import { liveEvents } from '@raly/contracts/live';
import { api, unwrapData } from '@/lib/api-client';
import { countMessageInList, mergeCollaborationIntoList } from '@/lib/collaborations-api';
import { followLive, type CacheLifecycle } from '@/lib/follow-live';
import { isNewer } from '@/lib/live-updates';
import { addMessage } from '@/features/collaborations/utils/conversation';

const collaborationPath = (id: string) => `/collaborations/${encodeURIComponent(id)}`;

export const collaborationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/collaborations/:id: the record (404 `collaborationNotFound` to anyone but its parties). */
    getCollaboration: build.query<CollaborationRecord, string>({
      query: collaborationPath,
      transformResponse: unwrapData<CollaborationRecord>,
      providesTags: ['Collaboration'],
      async onCacheEntryAdded(id, lifecycle) {
        await followLive(lifecycle, 'Collaboration', {
          [liveEvents.collaboration]: (collaboration) =>
            lifecycle.updateCachedData((current) =>
              collaboration.id === id && isNewer(current, collaboration) ? collaboration : current,
            ),
          [liveEvents.message]: (message) => {
            if (message.collaborationId === id) countMessage(lifecycle.dispatch, message);
          },
        });
      },
    }),
    /**
     * GET /api/collaborations/:id/messages: the first page is the newest; each
     * next page holds older messages (`before` = the page's `nextBefore`).
     */
    getMessages: build.infiniteQuery<MessagesPage, string, number | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextBefore,
      },
      query: ({ queryArg, pageParam }) =>
        pageParam === null
          ? `${collaborationPath(queryArg)}/messages`
          : `${collaborationPath(queryArg)}/messages?before=${pageParam}`,
      transformResponse: unwrapData<MessagesPage>,
      providesTags: ['CollaborationMessages'],
      async onCacheEntryAdded(id, lifecycle) {
        await followLive(lifecycle, 'CollaborationMessages', {
          [liveEvents.message]: (message) => {
            if (message.collaborationId === id)
              lifecycle.updateCachedData((history) => addMessage(history, message));
          },
        });
      },
    }),
    /**
     * POST /api/collaborations/:id/messages. The same `clientId` again answers
     * the stored message; a body that looks like contact details without
     * `confirmContactDetails` is refused (409, code `contact-details`).
     */
    sendMessage: build.mutation<
      CollaborationMessageRecord,
      { collaborationId: string; message: SendMessage }
    >({
      query: ({ collaborationId, message }) => ({
        url: `${collaborationPath(collaborationId)}/messages`,
        method: 'POST',
        body: message,
      }),
      transformResponse: unwrapData<CollaborationMessageRecord>,
      async onQueryStarted({ collaborationId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          collaborationsApi.util.updateQueryData('getMessages', collaborationId, (history) =>
            addMessage(history, data),
          ),
        );
        countMessage(dispatch, data);
        countMessageInList(dispatch, data);
      },
    }),
    /** POST /api/collaborations/:id/seen: the caller's side has seen up to `sequence`. */
    markSeen: build.mutation<CollaborationRecord, { collaborationId: string; sequence: number }>({
      query: ({ collaborationId, sequence }) => ({
        url: `${collaborationPath(collaborationId)}/seen`,
        method: 'POST',
        body: { sequence },
      }),
      transformResponse: unwrapData<CollaborationRecord>,
      async onQueryStarted({ collaborationId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          collaborationsApi.util.updateQueryData('getCollaboration', collaborationId, (current) =>
            isNewer(current, data) ? data : current,
          ),
        );
        mergeCollaborationIntoList(dispatch, data);
      },
    }),
  }),
});

/**
 * Counts a pushed or answered message on its cached collaboration (`countedBy`:
 * count, last message, the other side's unread, version); reads the
 * collaboration again when a change before the message is missing.
 */
function countMessage(dispatch: CacheLifecycle['dispatch'], message: CollaborationMessageRecord) {
  let missing = false;
  dispatch(
    collaborationsApi.util.updateQueryData(
      'getCollaboration',
      message.collaborationId,
      (current) => {
        const counted = countedBy(current, message);
        missing = counted === null;
        return counted ?? current;
      },
    ),
  );
  if (missing) dispatch(api.util.invalidateTags(['Collaboration']));
}

export const {
  useGetCollaborationQuery,
  useGetMessagesInfiniteQuery,
  useSendMessageMutation,
  useMarkSeenMutation,
} = collaborationsApi;
