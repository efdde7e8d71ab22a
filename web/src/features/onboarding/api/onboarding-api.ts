/**
 * Onboarding calls of the BFF (docs/api.md, spec §7 updateOnboardingStatus
 * and updateInterests, and the brand step of brand onboarding). Each answers
 * the user's records, which go straight into the getMe cache, so the next
 * step shows without waiting for the push.
 */
import type { Interest } from '@raly/contracts/constants';
import type { OnboardingStep } from '@raly/contracts/validation';
import { api, unwrapData } from '@/lib/api-client';
import type {
  BrandStepRequest,
  InterestsRequest,
  Me,
  OnboardingStepRequest,
} from '@raly/contracts/bff-api';
import { mergeAnswerIntoMe } from '@/lib/me-api';

export const onboardingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** updateOnboardingStatus(step, true): POST /api/me/onboarding. */
    completeOnboardingStep: build.mutation<Me, OnboardingStep>({
      query: (step) => ({
        url: '/me/onboarding',
        method: 'POST',
        body: { step } satisfies OnboardingStepRequest,
      }),
      transformResponse: unwrapData<Me>,
      onQueryStarted: mergeAnswerIntoMe,
    }),
    /** updateInterests(list): PUT /api/me/interests; also sets the interests flag. */
    updateInterests: build.mutation<Me, Interest[]>({
      query: (interests) => ({
        url: '/me/interests',
        method: 'PUT',
        body: { interests } satisfies InterestsRequest,
      }),
      transformResponse: unwrapData<Me>,
      onQueryStarted: mergeAnswerIntoMe,
    }),
    /**
     * The brand step: POST /api/me/onboarding/brand saves the essentials on the
     * brand and sets the brand flag; the answer carries both records.
     */
    completeBrandStep: build.mutation<Me, BrandStepRequest>({
      query: (body) => ({ url: '/me/onboarding/brand', method: 'POST', body }),
      transformResponse: unwrapData<Me>,
      onQueryStarted: mergeAnswerIntoMe,
    }),
  }),
});

export const {
  useCompleteOnboardingStepMutation,
  useUpdateInterestsMutation,
  useCompleteBrandStepMutation,
} = onboardingApi;
