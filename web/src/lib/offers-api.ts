/**
 * Offers and applications through the BFF (issue 9; `BffRoutes` of
 * @raly/contracts/bff-api), shared by the creator and brand screens, the
 * dashboard and the public profiles. Every list and detail follows the
 * live `offer.updated` / `application.updated` pushes of the one socket
 * (lib/live-socket) while it is cached, merged by version (lib/offer-live);
 * a socket reconnect, which may have missed pushes, reads them again. The
 * answers of commands are merged into the caches at once, so the tab that
 * acted shows the change before the push arrives.
 */
import type {
  ApplicationForm,
  ApplicationRecord,
  BrandOffer,
  CreateOffer,
  OfferDetail,
  OfferRecord,
  Page,
  PublicBrandProfile,
  PublicCreatorProfile,
  UpdateOffer,
} from '@raly/contracts/offers';
import { liveEvents } from '@raly/contracts/live';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { api, unwrapData } from '@/lib/api-client';
import { isNewer } from '@/lib/live-updates';
import { liveSocket } from '@/lib/live-socket';
import { applyOfferToFeed, feedSearchParams, upsertNewer, type FeedQuery } from '@/lib/offer-live';
import { getSessionSnapshot } from '@/lib/session';

const offerTags = [
  'Offers',
  'Offer',
  'BrandOffers',
  'OfferApplications',
  'MyApplications',
] as const;
type OfferTag = (typeof offerTags)[number];

/** The signed-in user's id (the token's subject), or null when signed out. */
function currentUserId(): string | null {
  const session = getSessionSnapshot();
  return session.status === 'signed-in' ? session.userId : null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LifecycleDispatch = ThunkDispatch<any, unknown, UnknownAction>;

interface LiveHandlers {
  offer?: (offer: OfferRecord) => void;
  application?: (application: ApplicationRecord) => void;
}

/**
 * Follows the live pushes for one cache entry until it is removed; after a
 * reconnect (pushes may have been missed) the entry's tag is read again.
 */
async function followLive(
  {
    cacheDataLoaded,
    cacheEntryRemoved,
  }: { cacheDataLoaded: Promise<unknown>; cacheEntryRemoved: Promise<unknown> },
  dispatch: LifecycleDispatch,
  tag: OfferTag,
  handlers: LiveHandlers,
): Promise<void> {
  try {
    await cacheDataLoaded;
  } catch {
    return; // the entry went away before data arrived
  }
  if (!currentUserId()) return; // visitors have no socket
  const socket = liveSocket();
  let connects = socket.connected ? 1 : 0;
  const onConnect = () => {
    connects += 1;
    if (connects > 1) dispatch(offersApi.util.invalidateTags([tag]));
  };
  socket.on('connect', onConnect);
  if (handlers.offer) socket.on(liveEvents.offer, handlers.offer);
  if (handlers.application) socket.on(liveEvents.application, handlers.application);
  await cacheEntryRemoved;
  socket.off('connect', onConnect);
  if (handlers.offer) socket.off(liveEvents.offer, handlers.offer);
  if (handlers.application) socket.off(liveEvents.application, handlers.application);
}

/** Puts an application (a push or a command's answer) into every cache that shows it. */
function applyApplication(dispatch: LifecycleDispatch, application: ApplicationRecord): void {
  const util = offersApi.util;
  dispatch(
    util.updateQueryData('getOffer', application.offerId, (detail) => {
      // Only the caller's own application is theirs (a brand member receives every applicant's).
      if (application.creatorId !== currentUserId()) return;
      const held = detail.myApplication;
      const replaces =
        !held ||
        (held.id === application.id
          ? isNewer(held, application)
          : Date.parse(application.created) > Date.parse(held.created));
      if (replaces) detail.myApplication = application;
    }),
  );
  dispatch(
    util.updateQueryData('getOfferApplications', application.offerId, (list) =>
      upsertNewer(list, application),
    ),
  );
  if (application.creatorId === currentUserId())
    dispatch(
      util.updateQueryData('getMyApplications', undefined, (list) =>
        upsertNewer(list, application),
      ),
    );
}

/** Puts an offer (a command's answer) into the detail cache that shows it. */
function applyOffer(dispatch: LifecycleDispatch, offer: OfferRecord): void {
  dispatch(
    offersApi.util.updateQueryData('getOffer', offer.id, (detail) => {
      if (isNewer(detail.offer, offer)) detail.offer = offer;
    }),
  );
}

/** `onQueryStarted` of commands answered with an offer. */
async function mergeOfferAnswer(
  _arg: unknown,
  {
    dispatch,
    queryFulfilled,
  }: { dispatch: LifecycleDispatch; queryFulfilled: Promise<{ data: OfferRecord }> },
): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (data) applyOffer(dispatch, data);
}

/** `onQueryStarted` of commands answered with an application. */
async function mergeApplicationAnswer(
  _arg: unknown,
  {
    dispatch,
    queryFulfilled,
  }: { dispatch: LifecycleDispatch; queryFulfilled: Promise<{ data: ApplicationRecord }> },
): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (data) applyApplication(dispatch, data);
}

const withTags = api.enhanceEndpoints({ addTagTypes: offerTags });

export const offersApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/offers: one page of open offers (matching the creator's interests first). */
    getOffers: build.query<Page<OfferRecord>, FeedQuery>({
      query: (query) => {
        const search = feedSearchParams(query).toString();
        return search ? `/offers?${search}` : '/offers';
      },
      transformResponse: unwrapData<Page<OfferRecord>>,
      providesTags: ['Offers'],
      async onCacheEntryAdded(query, lifecycle) {
        await followLive(lifecycle, lifecycle.dispatch, 'Offers', {
          offer: (offer) =>
            lifecycle.updateCachedData((page) => applyOfferToFeed(page, offer, query)),
        });
      },
    }),
    /** GET /api/offers/:id: the offer, its brand's public profile and the caller's application. */
    getOffer: build.query<OfferDetail, string>({
      query: (id) => `/offers/${encodeURIComponent(id)}`,
      transformResponse: unwrapData<OfferDetail>,
      providesTags: ['Offer'],
      async onCacheEntryAdded(id, lifecycle) {
        await followLive(lifecycle, lifecycle.dispatch, 'Offer', {
          offer: (offer) =>
            lifecycle.updateCachedData((detail) => {
              if (offer.id === id && isNewer(detail.offer, offer)) detail.offer = offer;
            }),
          application: (application) => {
            if (application.offerId === id) applyApplication(lifecycle.dispatch, application);
          },
        });
      },
    }),
    /** GET /api/brand/offers: the brand's offers with their applications by status. */
    getBrandOffers: build.query<BrandOffer[], void>({
      query: () => '/brand/offers',
      transformResponse: unwrapData<BrandOffer[]>,
      providesTags: ['BrandOffers'],
      async onCacheEntryAdded(_arg, lifecycle) {
        await followLive(lifecycle, lifecycle.dispatch, 'BrandOffers', {
          offer: (offer) =>
            lifecycle.updateCachedData((list) => {
              const known = list.find((item) => item.id === offer.id);
              if (known && !isNewer(known, offer)) return list;
              const counts = known?.applicationCounts ?? {
                pending: 0,
                accepted: 0,
                declined: 0,
                withdrawn: 0,
              };
              return upsertNewer(list, { ...offer, applicationCounts: counts });
            }),
          // The counts move between statuses: read them again rather than guess the old status.
          application: () => lifecycle.dispatch(offersApi.util.invalidateTags(['BrandOffers'])),
        });
      },
    }),
    /** GET /api/offers/:id/applications: the applications of one of the brand's offers. */
    getOfferApplications: build.query<ApplicationRecord[], string>({
      query: (offerId) => `/offers/${encodeURIComponent(offerId)}/applications`,
      transformResponse: unwrapData<ApplicationRecord[]>,
      providesTags: ['OfferApplications'],
      async onCacheEntryAdded(offerId, lifecycle) {
        await followLive(lifecycle, lifecycle.dispatch, 'OfferApplications', {
          application: (application) => {
            if (application.offerId === offerId)
              lifecycle.updateCachedData((list) => upsertNewer(list, application));
          },
        });
      },
    }),
    /** GET /api/me/applications: the signed-in creator's applications. */
    getMyApplications: build.query<ApplicationRecord[], void>({
      query: () => '/me/applications',
      transformResponse: unwrapData<ApplicationRecord[]>,
      providesTags: ['MyApplications'],
      async onCacheEntryAdded(_arg, lifecycle) {
        await followLive(lifecycle, lifecycle.dispatch, 'MyApplications', {
          application: (application) => {
            if (application.creatorId === currentUserId())
              lifecycle.updateCachedData((list) => upsertNewer(list, application));
          },
        });
      },
    }),
    /** GET /api/public/users/:username: a creator's public profile (anyone). */
    getPublicCreator: build.query<PublicCreatorProfile, string>({
      query: (username) => `/public/users/${encodeURIComponent(username)}`,
      transformResponse: unwrapData<PublicCreatorProfile>,
    }),
    /** GET /api/public/brands/:username: a brand's public profile and open offers (anyone). */
    getPublicBrand: build.query<PublicBrandProfile, string>({
      query: (username) => `/public/brands/${encodeURIComponent(username)}`,
      transformResponse: unwrapData<PublicBrandProfile>,
    }),
    /** POST /api/offers: a draft, or opened at once with `open: true`. */
    createOffer: build.mutation<OfferRecord, CreateOffer>({
      query: (body) => ({ url: '/offers', method: 'POST', body }),
      transformResponse: unwrapData<OfferRecord>,
      invalidatesTags: ['BrandOffers'],
    }),
    /** PATCH /api/offers/:id. */
    updateOffer: build.mutation<OfferRecord, { id: string; changes: UpdateOffer }>({
      query: ({ id, changes }) => ({
        url: `/offers/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: changes,
      }),
      transformResponse: unwrapData<OfferRecord>,
      invalidatesTags: ['BrandOffers'],
      onQueryStarted: mergeOfferAnswer,
    }),
    /** POST /api/offers/:id/open. */
    openOffer: build.mutation<OfferRecord, string>({
      query: (id) => ({ url: `/offers/${encodeURIComponent(id)}/open`, method: 'POST' }),
      transformResponse: unwrapData<OfferRecord>,
      invalidatesTags: ['BrandOffers'],
      onQueryStarted: mergeOfferAnswer,
    }),
    /** POST /api/offers/:id/close. */
    closeOffer: build.mutation<OfferRecord, string>({
      query: (id) => ({ url: `/offers/${encodeURIComponent(id)}/close`, method: 'POST' }),
      transformResponse: unwrapData<OfferRecord>,
      invalidatesTags: ['BrandOffers'],
      onQueryStarted: mergeOfferAnswer,
    }),
    /** POST /api/offers/:id/applications. */
    applyToOffer: build.mutation<ApplicationRecord, { offerId: string; form: ApplicationForm }>({
      query: ({ offerId, form }) => ({
        url: `/offers/${encodeURIComponent(offerId)}/applications`,
        method: 'POST',
        body: form,
      }),
      transformResponse: unwrapData<ApplicationRecord>,
      onQueryStarted: mergeApplicationAnswer,
    }),
    /** POST /api/applications/:id/withdraw|accept|decline. */
    decideApplication: build.mutation<
      ApplicationRecord,
      { id: string; action: 'withdraw' | 'accept' | 'decline' }
    >({
      query: ({ id, action }) => ({
        url: `/applications/${encodeURIComponent(id)}/${action}`,
        method: 'POST',
      }),
      transformResponse: unwrapData<ApplicationRecord>,
      invalidatesTags: (_result, _error, { action }) =>
        action === 'withdraw' ? [] : ['BrandOffers'],
      onQueryStarted: mergeApplicationAnswer,
    }),
  }),
});

export const {
  useGetOffersQuery,
  useGetOfferQuery,
  useGetBrandOffersQuery,
  useGetOfferApplicationsQuery,
  useGetMyApplicationsQuery,
  useGetPublicCreatorQuery,
  useGetPublicBrandQuery,
  useCreateOfferMutation,
  useUpdateOfferMutation,
  useOpenOfferMutation,
  useCloseOfferMutation,
  useApplyToOfferMutation,
  useDecideApplicationMutation,
} = offersApi;
