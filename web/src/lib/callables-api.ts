/**
 * The BFF's callables (spec §7, docs/api.md): POST /api/callable/<name>
 * with `{ data }`, answered `{ data }`. Mutations, not queries: uniqueness
 * can change at any moment, so answers are never cached.
 */
import { readCallableResponse, type CallableName } from '@raly/contracts/callable';
import { api } from '@/lib/api-client';

const callable = (name: CallableName) => (data: Record<string, string>) => ({
  url: `/callable/${name}`,
  method: 'POST',
  body: { data },
});

/** Reads the answer with the spec's rule: a body without `data` is an `internal` error. */
const readBoolean = (body: unknown, meta: { response?: Response } | undefined) =>
  readCallableResponse<boolean>(meta?.response?.status ?? 200, body) === true;

export const callablesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** true when the username is taken. */
    checkUsernameExists: build.mutation<boolean, { username: string }>({
      query: callable('checkUsernameExists'),
      transformResponse: readBoolean,
    }),
    /** true when an account already uses the e-mail. */
    checkEmailExists: build.mutation<boolean, { email: string }>({
      query: callable('checkEmailExists'),
      transformResponse: readBoolean,
    }),
  }),
});

export const { useCheckUsernameExistsMutation, useCheckEmailExistsMutation } = callablesApi;
