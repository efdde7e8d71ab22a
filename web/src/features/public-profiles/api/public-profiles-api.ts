/** Public profiles through the BFF: anyone may read them, signed in or not. */
import type { PublicBrandPage, PublicCreatorPage } from '@raly/contracts/collaboration-reviews';
import { api, unwrapData } from '@/lib/api-client';

export const publicProfilesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A creator's public fields and track record, by username. */
    getPublicCreator: build.query<PublicCreatorPage, string>({
      query: (username) => `/public/users/${encodeURIComponent(username)}`,
      transformResponse: unwrapData<PublicCreatorPage>,
    }),
    /** A brand's public fields, its open offers and its track record, by username. */
    getPublicBrand: build.query<PublicBrandPage, string>({
      query: (username) => `/public/brands/${encodeURIComponent(username)}`,
      transformResponse: unwrapData<PublicBrandPage>,
    }),
  }),
});

export const { useGetPublicCreatorQuery, useGetPublicBrandQuery } = publicProfilesApi;
