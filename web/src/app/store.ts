/**
 * The Redux store: the toast and the live offers badge (lib/offer-arrivals)
 * from the start, the RTK Query cache of the BFF api once a page that
 * calls the BFF is loaded (lib/root-reducer). The cache is emptied whenever
 * the signed-in user changes (sign-out here or in another tab, or a
 * different user), so no screen shows the previous user's records (spec
 * §4: on sign-out all profile state is cleared).
 */
import { getSessionSnapshot, subscribeSession } from '@/lib/session';
import { offerArrivalsReset } from '@/lib/offer-arrivals';
import { attachStore, createAppStore, userChangeResets } from '@/lib/root-reducer';

export const store = createAppStore();
attachStore(store);

const sessionUser = () => {
  const session = getSessionSnapshot();
  return session.status === 'signed-in' ? session.userId : null;
};

let cachedFor = sessionUser();
subscribeSession(() => {
  const user = sessionUser();
  if (user === cachedFor) return;
  cachedFor = user;
  for (const reset of userChangeResets()) store.dispatch(reset);
  store.dispatch(offerArrivalsReset());
});

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
