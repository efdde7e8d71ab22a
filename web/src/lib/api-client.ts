/**
 * The one RTK Query api of the SPA: it talks to the BFF only (/api, same
 * origin). Features add their endpoints with `api.injectEndpoints`. Every
 * request first makes sure the access token has 30 s left (lib/session
 * `getAccessToken`, which refreshes through the BFF's POST /api/auth/refresh
 * when it has less) and sends it as the bearer, and names a new trace in
 * a W3C `traceparent` header (lib/traceparent). Loading this module mounts
 * the api's reducer and middleware in the store (lib/root-reducer), so only
 * pages that call the BFF load RTK Query.
 */
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { DataEnvelope } from '@raly/contracts/bff-api';
import { env } from '@/config/env';
import { getAccessToken } from '@/lib/session';
import { newTraceparent, TRACEPARENT_HEADER } from '@/lib/traceparent';
import type { Middleware } from 'redux';
import { injectIntoStore, type StorePart } from '@/lib/root-reducer';

export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({
    baseUrl: env.apiBaseUrl,
    prepareHeaders: async (headers) => {
      const token = await getAccessToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      headers.set(TRACEPARENT_HEADER, newTraceparent());
      return headers;
    },
  }),
  tagTypes: ['Me'],
  endpoints: () => ({}),
});

injectIntoStore(api as StorePart, api.middleware as Middleware, () => api.util.resetApiState());

/** Unwraps the `{ data }` envelope of a BFF answer (docs/api.md). */
export const unwrapData = <T>(body: DataEnvelope<T>): T => body.data;
