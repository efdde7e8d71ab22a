/**
 * The header's "Offers" link of signed-in creators with the
 * offers badge: how many offers arrived live since the feed was last seen
 * (lib/offer-arrivals), and the one listener per tab that counts them.
 * Loaded only once signed in (it needs the live `me` query and its socket).
 * Brand users get an "Offers" link to their brand's offers, without a badge.
 */
import { useEffect } from 'react';
import { NavLink } from 'react-router-dom';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { liveEvents } from '@raly/contracts/live';
import type { OfferRecord } from '@raly/contracts/offers';
import { isBrandUser } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { liveSocket } from '@/lib/live-socket';
import { useGetMeQuery } from '@/lib/me-api';
import type { SignedInNavLinkProps } from '@/components/layout/nav-items';
import {
  offerArrived,
  selectCountedOffers,
  selectUnseenOffers,
  type OfferArrivalsState,
} from '@/lib/offer-arrivals';
import { isLiveArrival } from '@/lib/offer-live';
import { CountBadge } from '@/components/ui/count-badge';

/**
 * How far before the listener started an offer may have opened and still
 * count as arriving (ms): the push can trail the opening, and the server's
 * clock may run a little ahead of the browser's.
 */
const ARRIVAL_TOLERANCE_MS = 60_000;

/** @returns true once GET /api/me says the signed-in user is a creator */
function useIsCreator(): boolean {
  const { data: me } = useGetMeQuery();
  return Boolean(me && !isBrandUser(me.user));
}

/** Counts the offers arriving live on this tab's socket (mount once, in the header). */
export function OfferArrivalsListener() {
  const creator = useIsCreator();
  const dispatch = useDispatch();
  const store = useStore<{ offerArrivals: OfferArrivalsState }>();
  useEffect(() => {
    if (!creator) return;
    const since = Date.now() - ARRIVAL_TOLERANCE_MS;
    const socket = liveSocket();
    const onOffer = (offer: OfferRecord) => {
      const counted = new Set(selectCountedOffers(store.getState()));
      if (isLiveArrival(offer, counted, since)) dispatch(offerArrived(offer.id));
    };
    socket.on(liveEvents.offer, onOffer);
    return () => {
      socket.off(liveEvents.offer, onOffer);
    };
  }, [creator, dispatch, store]);
  return null;
}

/**
 * The "Offers" link: for creators to the feed, with its badge; for brand
 * users to their brand's offers. Nothing until GET /api/me has answered.
 */
export function OffersNavLink({ className, onClick }: SignedInNavLinkProps) {
  const { data: me } = useGetMeQuery();
  const unseen = useSelector(selectUnseenOffers);
  if (!me) return null;
  if (isBrandUser(me.user))
    return (
      <NavLink to={paths.brandOffers.path} onClick={onClick} className={className}>
        Offers
      </NavLink>
    );
  return (
    <NavLink to={paths.offers.path} onClick={onClick} className={className}>
      Offers
      {unseen > 0 && <CountBadge count={unseen} unit="new" testId="offers-badge" />}
    </NavLink>
  );
}
