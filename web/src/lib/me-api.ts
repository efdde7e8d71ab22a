/**
 * The signed-in user's own records (GET/PATCH /api/me), shared by every
 * screen that shows the user or their brand. One freshness path
 * (docs/adr/0007): GET /api/me once per page load, then the answers of the
 * user's own commands and the live `user.updated` / `brand.updated` pushes
 * are merged in (higher version wins); only a socket reconnect, which may
 * have missed pushes while the socket was down, reads GET /api/me again.
 */
import type { Me, MeUpdate } from '@raly/contracts/bff-api';
import { liveEvents } from '@raly/contracts/live';
import { api, unwrapData } from '@/lib/api-client';
import { applyBrandUpdated, applyUserUpdated, isProfileLoaded, mergeMe } from '@/lib/live-updates';
import { followLive, type CacheLifecycle } from '@/lib/follow-live';

/**
 * `onQueryStarted` of every call the BFF answers with `Me`: once the call
 * succeeds, its answer is merged into the getMe cache (higher versions win),
 * so the screen shows the change before the live push arrives.
 */
export async function mergeAnswerIntoMe(
  _arg: unknown,
  {
    dispatch,
    queryFulfilled,
  }: Pick<CacheLifecycle, 'dispatch'> & { queryFulfilled: Promise<{ data: Me }> },
): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (data) dispatch(meApi.util.updateQueryData('getMe', undefined, (me) => mergeMe(me, data)));
}

export const meApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<Me, void>({
      query: () => '/me',
      transformResponse: unwrapData<Me>,
      providesTags: ['Me'],
      async onCacheEntryAdded(_arg, lifecycle) {
        const { updateCachedData } = lifecycle;
        await followLive(lifecycle, 'Me', {
          [liveEvents.user]: (user) => updateCachedData((me) => applyUserUpdated(me, user)),
          [liveEvents.brand]: (brand) => updateCachedData((me) => applyBrandUpdated(me, brand)),
        });
      },
    }),
    updateMe: build.mutation<Me, MeUpdate>({
      query: (body) => ({ url: '/me', method: 'PATCH', body }),
      transformResponse: unwrapData<Me>,
      onQueryStarted: mergeAnswerIntoMe,
    }),
  }),
});

export const { useGetMeQuery, useUpdateMeMutation } = meApi;

/**
 * The signed-in user's profile with the spec §4 loading flag.
 * @returns `me` once loaded (the user record and, for a brand user, the brand
 *   record); `isLoading` true until then unless the request failed (`isError`)
 */
export function useProfile(): { me: Me | undefined; isLoading: boolean; isError: boolean } {
  const { data, isError } = useGetMeQuery();
  const loaded = isProfileLoaded(data);
  return { me: loaded ? data : undefined, isLoading: !loaded && !isError, isError };
}
