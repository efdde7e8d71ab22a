/** Public profiles through the BFF: anyone may read them, signed in or not. */
import type { PublicBrandProfile, PublicCreatorProfile } from '@raly/contracts/offers';
import { api, unwrapData } from '@/lib/api-client';

export const publicProfilesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A creator's public fields, by username. */
    getPublicCreator: build.query<PublicCreatorProfile, string>({
      query: (username) => `/public/users/${encodeURIComponent(username)}`,
      transformResponse: unwrapData<PublicCreatorProfile>,
    }),
    /** A brand's public fields and its open offers, by username. */
    getPublicBrand: build.query<PublicBrandProfile, string>({
      query: (username) => `/public/brands/${encodeURIComponent(username)}`,
      transformResponse: unwrapData<PublicBrandProfile>,
    }),
  }),
});

export const { useGetPublicCreatorQuery, useGetPublicBrandQuery } = publicProfilesApi;
