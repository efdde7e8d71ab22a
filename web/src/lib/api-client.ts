/**
 * The one RTK Query api of the SPA, talking to the BFF only (/api, same
 * origin); features add their endpoints with `api.injectEndpoints`. Each
 * request carries the access token, refreshed first when it has less than
 * 30 s left (lib/session `getAccessToken`), and a new W3C `traceparent`.
 * Loading this module mounts the api in the store (lib/store), so only pages
 * that call the BFF load RTK Query.
 */
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { DataEnvelope } from '@raly/contracts/bff-api';
import { env } from '@/config/env';
import { getAccessToken } from '@/lib/session';
import { newTraceparent, TRACEPARENT_HEADER } from '@/lib/traceparent';
import { dynamicMiddleware, resetOnUserChange, rootReducer, store } from '@/lib/store';

/** Every cache a live push or a reconnect can invalidate (lib/follow-live). */
const tagTypes = [
  'Me',
  'Offers',
  'Offer',
  'BrandOffers',
  'OfferApplications',
  'MyApplications',
  'Collaborations',
  'CollaborationsSummary',
  'Collaboration',
  'CollaborationMessages',
  'Notifications',
  'Inbox',
  'Team',
  'Invitations',
] as const;
export type ApiTag = (typeof tagTypes)[number];

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
  tagTypes,
  endpoints: () => ({}),
});

rootReducer.inject(api);
dynamicMiddleware.addMiddleware(api.middleware);
// An injected reducer gets its state at the next action; the first render reads it before that.
store.dispatch(api.util.resetApiState());
resetOnUserChange(api.util.resetApiState);

/** Unwraps the `{ data }` envelope of a BFF answer (docs/api.md). */
export const unwrapData = <T>(body: DataEnvelope<T>): T => body.data;
