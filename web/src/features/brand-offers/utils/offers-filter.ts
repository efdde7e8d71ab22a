/**
 * The brand offers list's filter, read from its query string (the brand
 * dashboard's figures link to it): `?status=open|draft|closed` keeps the
 * offers of that status, `?applications=pending` the offers with
 * applications waiting for a decision; anything else shows every offer.
 */
import { OFFER_STATUSES, type BrandOffer, type OfferStatus } from '@raly/contracts/offers';

export type BrandOffersFilter = { status: OfferStatus } | { pendingApplications: true } | null;

/** @returns the filter `search` asks for, or null for none (or one not understood) */
export function offersFilterOf(search: URLSearchParams): BrandOffersFilter {
  const status = search.get('status');
  if (status && (OFFER_STATUSES as readonly string[]).includes(status))
    return { status: status as OfferStatus };
  if (search.get('applications') === 'pending') return { pendingApplications: true };
  return null;
}

/** @returns the offers `filter` keeps, in their order */
export function filterOffers(offers: BrandOffer[], filter: BrandOffersFilter): BrandOffer[] {
  if (!filter) return offers;
  if ('status' in filter) return offers.filter((offer) => offer.status === filter.status);
  return offers.filter((offer) => offer.applicationCounts.pending > 0);
}

/** @returns what the list shows under the filter, e.g. 'Open offers' */
export function offersFilterLabel(filter: Exclude<BrandOffersFilter, null>): string {
  if ('status' in filter)
    return `${filter.status[0]!.toUpperCase()}${filter.status.slice(1)} offers`;
  return 'Offers with applications waiting for a decision';
}
