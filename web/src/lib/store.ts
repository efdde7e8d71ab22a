/**
 * The one Redux store. The toast and the live offers badge are there from
 * the start; the RTK Query cache of the BFF joins when lib/api-client loads
 * (`rootReducer.inject` and `dynamicMiddleware`). Every part registered with
 * `resetOnUserChange` is emptied whenever the signed-in user changes
 * (sign-out here or in another tab, or a different user), so no screen shows
 * the previous user's records (spec §4: on sign-out all profile state is
 * cleared).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { getSessionSnapshot, subscribeSession } from '@/lib/session';
import { offerArrivalsReset, offerArrivalsSlice } from '@/lib/offer-arrivals';
import { combineSlices, configureStore, createDynamicMiddleware } from '@/lib/store-toolkit';
import { toastSlice } from '@/lib/toast';

export const rootReducer = combineSlices(toastSlice, offerArrivalsSlice);
export const dynamicMiddleware = createDynamicMiddleware();

export const store = configureStore({
  reducer: rootReducer,
  middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(dynamicMiddleware.middleware),
});

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;

const resets = new Set<() => UnknownAction>([offerArrivalsReset]);

/** Dispatches `reset()` whenever the signed-in user changes (once per action creator). */
export function resetOnUserChange(reset: () => UnknownAction): void {
  resets.add(reset);
}

const sessionUser = () => {
  const session = getSessionSnapshot();
  return session.status === 'signed-in' ? session.userId : null;
};

let cachedFor = sessionUser();
subscribeSession(() => {
  const user = sessionUser();
  if (user === cachedFor) return;
  cachedFor = user;
  for (const reset of resets) store.dispatch(reset());
});
