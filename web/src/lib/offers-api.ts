/**
 * The offers and applications that several features show (the creator's
 * feed and applications, the brand's offers, the dashboard), through the
 * BFF (`BffRoutes` of @raly/contracts/bff-api). Every list and detail
 * follows the live `offer.updated` / `application.updated` pushes while it
 * is cached (lib/follow-live), merged by version (lib/offer-live). The
 * features' commands merge their answers here at once
 * (`mergeOfferAnswer`, `mergeApplicationAnswer`), so the tab that acted
 * shows the change before the push arrives.
 */
import type {
  ApplicationRecord,
  BrandOffer,
  OfferDetail,
  OfferRecord,
  Page,
} from '@raly/contracts/offers';
import { liveEvents } from '@raly/contracts/live';
import { api, unwrapData } from '@/lib/api-client';
import { followLive, type CacheLifecycle } from '@/lib/follow-live';
import { isNewer } from '@/lib/live-updates';
import { applyOfferToFeed, feedSearchParams, upsertNewer, type FeedQuery } from '@/lib/offer-live';
import { getSessionSnapshot } from '@/lib/session';

type LifecycleDispatch = CacheLifecycle['dispatch'];

/** The signed-in user's id (the token's subject), or null when signed out. */
function currentUserId(): string | null {
  const session = getSessionSnapshot();
  return session.status === 'signed-in' ? session.userId : null;
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

type AnswerLifecycle<T> = Pick<CacheLifecycle, 'dispatch'> & {
  queryFulfilled: Promise<{ data: T }>;
};

/** `onQueryStarted` of commands answered with an offer: the offer's detail cache takes it. */
export async function mergeOfferAnswer(
  _arg: unknown,
  { dispatch, queryFulfilled }: AnswerLifecycle<OfferRecord>,
): Promise<void> {
  const { data: offer } = await queryFulfilled.catch(() => ({ data: null }));
  if (!offer) return;
  dispatch(
    offersApi.util.updateQueryData('getOffer', offer.id, (detail) => {
      if (isNewer(detail.offer, offer)) detail.offer = offer;
    }),
  );
}

/** `onQueryStarted` of commands answered with an application: every cache showing it takes it. */
export async function mergeApplicationAnswer(
  _arg: unknown,
  { dispatch, queryFulfilled }: AnswerLifecycle<ApplicationRecord>,
): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (data) applyApplication(dispatch, data);
}

export const offersApi = api.injectEndpoints({
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
        await followLive(lifecycle, 'Offers', {
          [liveEvents.offer]: (offer) =>
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
        await followLive(lifecycle, 'Offer', {
          [liveEvents.offer]: (offer) =>
            lifecycle.updateCachedData((detail) => {
              if (offer.id === id && isNewer(detail.offer, offer)) detail.offer = offer;
            }),
          [liveEvents.application]: (application) => {
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
        await followLive(lifecycle, 'BrandOffers', {
          [liveEvents.offer]: (offer) =>
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
          [liveEvents.application]: () =>
            lifecycle.dispatch(offersApi.util.invalidateTags(['BrandOffers'])),
        });
      },
    }),
    /** GET /api/offers/:id/applications: the applications of one of the brand's offers. */
    getOfferApplications: build.query<ApplicationRecord[], string>({
      query: (offerId) => `/offers/${encodeURIComponent(offerId)}/applications`,
      transformResponse: unwrapData<ApplicationRecord[]>,
      providesTags: ['OfferApplications'],
      async onCacheEntryAdded(offerId, lifecycle) {
        await followLive(lifecycle, 'OfferApplications', {
          [liveEvents.application]: (application) => {
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
        await followLive(lifecycle, 'MyApplications', {
          [liveEvents.application]: (application) => {
            if (application.creatorId === currentUserId())
              lifecycle.updateCachedData((list) => upsertNewer(list, application));
          },
        });
      },
    }),
  }),
});

export const {
  useGetOffersQuery,
  useGetOfferQuery,
  useGetBrandOffersQuery,
  useGetOfferApplicationsQuery,
  useGetMyApplicationsQuery,
} = offersApi;
