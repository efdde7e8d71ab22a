/**
 * The one RTK Query api of the SPA: it talks to the BFF only (/api, same
 * origin). Features add their endpoints with `api.injectEndpoints`. Every
 * request first makes sure the access token has 30 s left (keycloak-js
 * `updateToken(30)`) and sends it as the bearer.
 */
import { createApi, fetchBaseQuery, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import type { SerializedError } from '@reduxjs/toolkit';
import { env } from '@/config/env';
import { getAccessToken } from '@/lib/session';

export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({
    baseUrl: env.apiBaseUrl,
    prepareHeaders: async (headers) => {
      const token = await getAccessToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return headers;
    },
  }),
  tagTypes: ['Me'],
  endpoints: () => ({}),
});

/** `{ data }`, the success envelope of every BFF answer (docs/api.md). */
export interface DataEnvelope<T> {
  data: T;
}

/** Unwraps the `{ data }` envelope of a BFF answer. */
export const unwrapData = <T>(body: DataEnvelope<T>): T => body.data;

/**
 * The message to show for a failed call: the BFF's `error.message` (the spec
 * text when the spec has one), else `fallback`.
 */
export function apiErrorMessage(error: FetchBaseQueryError | SerializedError | undefined, fallback: string): string {
  if (error && 'status' in error) {
    const body = error.data as { error?: { message?: unknown } } | undefined;
    if (typeof body?.error?.message === 'string' && body.error.message) return body.error.message;
  }
  return fallback;
}
