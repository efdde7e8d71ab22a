/** validateUserCredientials (spec §7): POST /api/auth/verify-password, the Verify Password dialog's check. */
import type { VerifyPasswordRequest } from '@raly/contracts/bff-api';
import { api, unwrapData } from '@/lib/api-client';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** true when `password` is the signed-in user's current password; 401 'Incorrect password' otherwise. */
    verifyPassword: build.mutation<boolean, VerifyPasswordRequest>({
      query: (body) => ({ url: '/auth/verify-password', method: 'POST', body }),
      transformResponse: unwrapData<boolean>,
    }),
  }),
});

export const { useVerifyPasswordMutation } = accountApi;
