/**
 * The "offers" badge of the header: how many offers arrived live
 * (`offer.updated` pushes of newly opened offers matching the creator) since
 * the feed at /offers was last seen. The header's listener counts them, the
 * feed marks them seen; each offer counts once per tab.
 */
import type { Reducer, UnknownAction } from '@reduxjs/toolkit';

export interface OfferArrivalsState {
  /** Offers that arrived since the feed was last seen. */
  unseen: number;
  /** Ids already counted (arrived in this tab), so a later push of the same offer is not counted again. */
  counted: string[];
}

const initialState: OfferArrivalsState = { unseen: 0, counted: [] };

const ARRIVED = 'offerArrivals/offerArrived';
const SEEN = 'offerArrivals/offersFeedSeen';
const RESET = 'offerArrivals/offerArrivalsReset';

/** One more offer arrived live (counted once per id). */
export const offerArrived = (offerId: string) => ({ type: ARRIVED, payload: offerId });
/** The feed was seen: the badge goes away. */
export const offersFeedSeen = () => ({ type: SEEN });
/** A different user (or none) is signed in: forget everything. */
export const offerArrivalsReset = () => ({ type: RESET });

// A plain reducer: createSlice would bring immer to the first page (lib/store-toolkit).
const reducer: Reducer<OfferArrivalsState, UnknownAction> = (state = initialState, action) => {
  if (action.type === ARRIVED) {
    const offerId = action.payload as string;
    if (state.counted.includes(offerId)) return state;
    return { unseen: state.unseen + 1, counted: [...state.counted, offerId] };
  }
  if (action.type === SEEN) return state.unseen === 0 ? state : { ...state, unseen: 0 };
  if (action.type === RESET) return initialState;
  return state;
};

/** The badge's reducer, mounted in the store under `offerArrivals`. */
export const offerArrivalsSlice = {
  name: 'offerArrivals',
  reducerPath: 'offerArrivals',
  reducer,
} as const;

/** Selects the badge's count from a store that mounts the slice under `offerArrivals`. */
export const selectUnseenOffers = (state: { offerArrivals: OfferArrivalsState }) =>
  state.offerArrivals.unseen;
/** Selects the ids counted so far. */
export const selectCountedOffers = (state: { offerArrivals: OfferArrivalsState }) =>
  state.offerArrivals.counted;
