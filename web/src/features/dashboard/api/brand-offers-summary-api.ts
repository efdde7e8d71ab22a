/**
 * The brand dashboard's figures: GET /api/brand/offers/summary (docs/api.md),
 * counted by the BFF over the brand's offers. The figures move with every
 * offer and application push of the brand (lib/follow-live), and with the
 * brand's own offer commands (they invalidate 'BrandOffers'), so they are
 * read again then rather than guessed from the push.
 */
import type { BrandOffersSummary } from '@raly/contracts/bff-api';
import { liveEvents } from '@raly/contracts/live';
import { api, unwrapData } from '@/lib/api-client';
import { followLive } from '@/lib/follow-live';

export const brandOffersSummaryApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBrandOffersSummary: build.query<BrandOffersSummary, void>({
      query: () => '/brand/offers/summary',
      transformResponse: unwrapData<BrandOffersSummary>,
      providesTags: ['BrandOffers'],
      async onCacheEntryAdded(_arg, lifecycle) {
        const readAgain = () =>
          lifecycle.dispatch(brandOffersSummaryApi.util.invalidateTags(['BrandOffers']));
        await followLive(lifecycle, 'BrandOffers', {
          [liveEvents.offer]: readAgain,
          [liveEvents.application]: readAgain,
        });
      },
    }),
  }),
});

export const { useGetBrandOffersSummaryQuery } = brandOffersSummaryApi;
