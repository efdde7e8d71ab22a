/**
 * The brand's commands on its offers and their applications. Each answer
 * goes into the caches of lib/offers-api at once; the brand's list is read
 * again because its application counts move.
 */
import type {
  ApplicationRecord,
  CreateOffer,
  OfferRecord,
  UpdateOffer,
} from '@raly/contracts/offers';
import { api, unwrapData } from '@/lib/api-client';
import { mergeApplicationAnswer, mergeOfferAnswer } from '@/lib/offers-api';

/** The offer commands without a body: POST /api/offers/:id/<command>. */
const offerCommand = (command: 'open' | 'close') => (id: string) => ({
  url: `/offers/${encodeURIComponent(id)}/${command}`,
  method: 'POST',
});

export const brandOffersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A draft, or an offer opened at once with `open: true`. */
    createOffer: build.mutation<OfferRecord, CreateOffer>({
      query: (body) => ({ url: '/offers', method: 'POST', body }),
      transformResponse: unwrapData<OfferRecord>,
      invalidatesTags: ['BrandOffers'],
    }),
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
    openOffer: build.mutation<OfferRecord, string>({
      query: offerCommand('open'),
      transformResponse: unwrapData<OfferRecord>,
      invalidatesTags: ['BrandOffers'],
      onQueryStarted: mergeOfferAnswer,
    }),
    closeOffer: build.mutation<OfferRecord, string>({
      query: offerCommand('close'),
      transformResponse: unwrapData<OfferRecord>,
      invalidatesTags: ['BrandOffers'],
      onQueryStarted: mergeOfferAnswer,
    }),
    decideApplication: build.mutation<
      ApplicationRecord,
      { id: string; action: 'accept' | 'decline' }
    >({
      query: ({ id, action }) => ({
        url: `/applications/${encodeURIComponent(id)}/${action}`,
        method: 'POST',
      }),
      transformResponse: unwrapData<ApplicationRecord>,
      invalidatesTags: ['BrandOffers'],
      onQueryStarted: mergeApplicationAnswer,
    }),
  }),
});

export const {
  useCreateOfferMutation,
  useUpdateOfferMutation,
  useOpenOfferMutation,
  useCloseOfferMutation,
  useDecideApplicationMutation,
} = brandOffersApi;
