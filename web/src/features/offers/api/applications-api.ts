/** The creator's commands on applications; each answer goes into the caches of lib/offers-api at once. */
import type { ApplicationForm, ApplicationRecord } from '@raly/contracts/offers';
import { api, unwrapData } from '@/lib/api-client';
import { mergeApplicationAnswer } from '@/lib/offers-api';

export const applicationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    applyToOffer: build.mutation<ApplicationRecord, { offerId: string; form: ApplicationForm }>({
      query: ({ offerId, form }) => ({
        url: `/offers/${encodeURIComponent(offerId)}/applications`,
        method: 'POST',
        body: form,
      }),
      transformResponse: unwrapData<ApplicationRecord>,
      onQueryStarted: mergeApplicationAnswer,
    }),
    /** Withdraws the creator's application, by its id. */
    withdrawApplication: build.mutation<ApplicationRecord, string>({
      query: (id) => ({ url: `/applications/${encodeURIComponent(id)}/withdraw`, method: 'POST' }),
      transformResponse: unwrapData<ApplicationRecord>,
      onQueryStarted: mergeApplicationAnswer,
    }),
  }),
});

export const { useApplyToOfferMutation, useWithdrawApplicationMutation } = applicationsApi;
