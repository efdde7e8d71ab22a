/**
 * Sign-in and registration calls of the BFF (docs/api.md): both answer the
 * token set the browser session starts from.
 */
import type { CreateAccountCommand, LoginForm } from '@raly/contracts/validation';
import { api, unwrapData } from '@/lib/api-client';
import type { TokenSet } from '@/lib/token-set';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<TokenSet, LoginForm>({
      query: (credentials) => ({ url: '/auth/login', method: 'POST', body: credentials }),
      transformResponse: unwrapData<TokenSet>,
    }),
    createAccount: build.mutation<TokenSet, CreateAccountCommand>({
      query: (command) => ({ url: '/accounts', method: 'POST', body: command }),
      transformResponse: unwrapData<TokenSet>,
    }),
  }),
});

export const { useLoginMutation, useCreateAccountMutation } = authApi;
