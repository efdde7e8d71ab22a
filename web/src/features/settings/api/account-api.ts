/** validateUserCredientials (spec §7): POST /api/auth/verify-password, the Verify Password dialog's check. */
import { api, unwrapData } from '@/lib/api-client';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** true when `password` is the signed-in user's current password; 401 'Incorrect password' otherwise. */
    verifyPassword: build.mutation<boolean, { password: string }>({
      query: (body) => ({ url: '/auth/verify-password', method: 'POST', body }),
      transformResponse: unwrapData<boolean>,
    }),
  }),
});

export const { useVerifyPasswordMutation } = accountApi;
