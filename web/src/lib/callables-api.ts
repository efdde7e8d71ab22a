/**
 * The BFF's callables (spec §7, docs/api.md): POST /api/callable/<name>
 * with `{ data }`, answered `{ data }`, through the callable client (spec
 * §9 defaults: 70000 ms timeout, region us-central1). Mutations, not
 * queries: uniqueness can change at any moment, so answers are never cached.
 */
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { CallableError, type CallableName } from '@raly/contracts/callable';
import { env } from '@/config/env';
import { api } from '@/lib/api-client';
import { createCallableClient } from '@/lib/callable-client';
import { getAccessToken } from '@/lib/session';

/** The app's callable client: the BFF's /api, the spec's default timeout and region. */
export const callableClient = createCallableClient({
  baseUrl: env.apiBaseUrl,
  getAccessToken,
});

/**
 * Calls `name` and answers true only for a `data` of exactly true. A failure
 * is RTK Query's CUSTOM_ERROR with the callable code as `error` and the BFF's
 * error body shape as `data` (so apiErrorMessage reads its message).
 */
const booleanCallable =
  (name: CallableName) =>
  async (
    data: Record<string, string>,
  ): Promise<{ data: boolean } | { error: FetchBaseQueryError }> => {
    try {
      return { data: (await callableClient.call<unknown>(name, data)) === true };
    } catch (error) {
      const failure =
        error instanceof CallableError ? error : new CallableError('internal', String(error), 0);
      return {
        error: {
          status: 'CUSTOM_ERROR',
          error: failure.code,
          data: { error: { code: failure.code, message: failure.message } },
        },
      };
    }
  };

export const callablesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** true when the username is taken. */
    checkUsernameExists: build.mutation<boolean, { username: string }>({
      queryFn: booleanCallable('checkUsernameExists'),
    }),
    /** true when an account already uses the e-mail. */
    checkEmailExists: build.mutation<boolean, { email: string }>({
      queryFn: booleanCallable('checkEmailExists'),
    }),
  }),
});

export const { useCheckUsernameExistsMutation, useCheckEmailExistsMutation } = callablesApi;
