/**
 * The brand equivalent of updateAccount (spec §7): PATCH /api/brand with the
 * whole brand profile form (docs/api.md), answered with the BrandRecord. The
 * answer goes into the getMe cache at once (higher version wins); other
 * tabs get it as the live `brand.updated` push.
 */
import type { BrandRecord } from '@raly/contracts/records';
import { api, unwrapData } from '@/lib/api-client';
import { applyBrandUpdated } from '@/lib/live-updates';
import { meApi } from '@/lib/me-api';
import type { BrandFormValues } from '@/features/brand-profile/utils/brand-form-values';

export const brandApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateBrand: build.mutation<BrandRecord, BrandFormValues>({
      query: (body) => ({ url: '/brand', method: 'PATCH', body }),
      transformResponse: unwrapData<BrandRecord>,
      async onQueryStarted(_form, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data)
          dispatch(
            meApi.util.updateQueryData('getMe', undefined, (me) => applyBrandUpdated(me, data)),
          );
      },
    }),
  }),
});

export const { useUpdateBrandMutation } = brandApi;
