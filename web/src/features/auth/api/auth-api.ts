/**
 * Sign-in, registration and password calls of the BFF (docs/api.md): login
 * and registration answer the token set the browser session starts from;
 * forgot-password and reset-password answer `true`.
 */
import type {
  CreateAccountCommand,
  ForgotPasswordForm,
  LoginForm,
} from '@raly/contracts/validation';
import { api, unwrapData } from '@/lib/api-client';
import type { ResetPasswordRequest, TokenSet } from '@raly/contracts/bff-api';

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
    /** sendResetPasswordLink (spec §7): e-mails a reset link; 404 'There is no account associated with this email'. */
    sendResetPasswordLink: build.mutation<boolean, ForgotPasswordForm>({
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
      transformResponse: unwrapData<boolean>,
    }),
    /** resetPassword (spec §7): spends the code and sets the new password. */
    resetPassword: build.mutation<boolean, ResetPasswordRequest>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
      transformResponse: unwrapData<boolean>,
    }),
  }),
});

export const {
  useLoginMutation,
  useCreateAccountMutation,
  useSendResetPasswordLinkMutation,
  useResetPasswordMutation,
} = authApi;
