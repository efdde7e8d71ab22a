/**
 * The signed-in user's own records (GET/PATCH /api/me), shared by every
 * screen that shows the user or their brand. One freshness path
 * (docs/adr/0007): GET /api/me once per page load, then the answers of the
 * user's own commands and the live `user.updated` / `brand.updated` pushes
 * are merged in (higher version wins); only a socket reconnect, which may
 * have missed pushes while the socket was down, reads GET /api/me again.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Me, MeUpdate } from '@raly/contracts/bff-api';
import { liveEvents } from '@raly/contracts/live';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { api, unwrapData } from '@/lib/api-client';
import { applyBrandUpdated, applyUserUpdated, isProfileLoaded, mergeMe } from '@/lib/live-updates';
import { liveSocket } from '@/lib/live-socket';

/** The dispatch RTK Query hands to lifecycle handlers (its state type is the api's own root state). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LifecycleDispatch = ThunkDispatch<any, unknown, UnknownAction>;

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
  }: { dispatch: LifecycleDispatch; queryFulfilled: Promise<{ data: Me }> },
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
      async onCacheEntryAdded(
        _arg,
        { updateCachedData, cacheDataLoaded, cacheEntryRemoved, dispatch },
      ) {
        try {
          await cacheDataLoaded;
        } catch {
          return; // the entry went away before data arrived
        }
        const socket = liveSocket();
        const onUser = (user: UserRecord) => updateCachedData((me) => applyUserUpdated(me, user));
        const onBrand = (brand: BrandRecord) =>
          updateCachedData((me) => applyBrandUpdated(me, brand));
        // The first connect follows the GET /api/me just answered, and the BFF
        // sends the current snapshots as the socket joins its rooms; a later
        // connect is a reconnect, which may have missed pushes: read once again.
        let connects = socket.connected ? 1 : 0;
        const onConnect = () => {
          connects += 1;
          if (connects > 1) dispatch(api.util.invalidateTags(['Me']));
        };
        socket.on(liveEvents.user, onUser);
        socket.on(liveEvents.brand, onBrand);
        socket.on('connect', onConnect);
        await cacheEntryRemoved;
        socket.off(liveEvents.user, onUser);
        socket.off(liveEvents.brand, onBrand);
        socket.off('connect', onConnect);
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
