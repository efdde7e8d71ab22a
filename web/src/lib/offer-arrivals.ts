/**
 * The "offers" badge of the header (issue 9): how many offers arrived live
 * (`offer.updated` pushes of newly opened offers matching the creator) since
 * the feed at /offers was last seen. The header's listener counts them, the
 * feed marks them seen; each offer counts once per tab.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface OfferArrivalsState {
  /** Offers that arrived since the feed was last seen. */
  unseen: number;
  /** Ids already counted (arrived in this tab), so a later push of the same offer is not counted again. */
  counted: string[];
}

const initialState: OfferArrivalsState = { unseen: 0, counted: [] };

export const offerArrivalsSlice = createSlice({
  name: 'offerArrivals',
  initialState,
  reducers: {
    /** One more offer arrived live (counted once per id). */
    offerArrived(state, action: PayloadAction<string>) {
      if (state.counted.includes(action.payload)) return;
      state.counted.push(action.payload);
      state.unseen += 1;
    },
    /** The feed was seen: the badge goes away. */
    offersFeedSeen(state) {
      state.unseen = 0;
    },
    /** A different user (or none) is signed in: forget everything. */
    offerArrivalsReset() {
      return initialState;
    },
  },
});

export const { offerArrived, offersFeedSeen, offerArrivalsReset } = offerArrivalsSlice.actions;

/** Selects the badge's count from a store that mounts the slice under `offerArrivals`. */
export const selectUnseenOffers = (state: { offerArrivals: OfferArrivalsState }) =>
  state.offerArrivals.unseen;
/** Selects the ids counted so far. */
export const selectCountedOffers = (state: { offerArrivals: OfferArrivalsState }) =>
  state.offerArrivals.counted;
