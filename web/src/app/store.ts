/**
 * The Redux store: the RTK Query cache of the BFF api, the toast and the
 * live offers badge (lib/offer-arrivals). The
 * cache is emptied whenever the signed-in user changes (sign-out here or in
 * another tab, or a different user), so no screen shows the previous
 * user's records (spec §4: on sign-out all profile state is cleared).
 */
import { configureStore } from '@reduxjs/toolkit';
import { api } from '@/lib/api-client';
import { getSessionSnapshot, subscribeSession } from '@/lib/session';
import { toastSlice } from '@/lib/toast';
import { offerArrivalsReset, offerArrivalsSlice } from '@/lib/offer-arrivals';

export const store = configureStore({
  reducer: {
    [api.reducerPath]: api.reducer,
    [toastSlice.name]: toastSlice.reducer,
    [offerArrivalsSlice.name]: offerArrivalsSlice.reducer,
  },
  middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
});

const sessionUser = () => {
  const session = getSessionSnapshot();
  return session.status === 'signed-in' ? session.userId : null;
};

let cachedFor = sessionUser();
subscribeSession(() => {
  const user = sessionUser();
  if (user === cachedFor) return;
  cachedFor = user;
  store.dispatch(api.util.resetApiState());
  store.dispatch(offerArrivalsReset());
});

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
