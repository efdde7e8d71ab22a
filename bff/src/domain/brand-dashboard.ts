/**
 * The brand dashboard's figures (GET /api/brand/offers/summary): the
 * caller's brand's offers by status and the applications waiting for its
 * decision, counted over the same list the brand's offers page reads from
 * services/offers. The brand id comes from the caller's user record.
 */
import type { BrandOffersSummary } from '@raly/contracts/bff-api';
import type { BrandOffer } from '@raly/contracts/offers';
import type { Caller } from '@raly/service-kit/auth';
import { listMyBrandOffers, type OffersDependencies } from './offers';

/**
 * @returns the counts of open, draft and closed offers and of pending applications
 * @throws AppError permission-denied for a user without a brand; as the offers service answered
 */
export async function summarizeMyBrandOffers(
  dependencies: OffersDependencies,
  caller: Caller,
): Promise<BrandOffersSummary> {
  return summaryOf(await listMyBrandOffers(dependencies, caller));
}

/** @returns the figures of `offers` (each with its applications by status) */
export function summaryOf(offers: readonly BrandOffer[]): BrandOffersSummary {
  const summary: BrandOffersSummary = {
    offers: { open: 0, draft: 0, closed: 0 },
    pendingApplications: 0,
  };
  for (const offer of offers) {
    summary.offers[offer.status] += 1;
    summary.pendingApplications += offer.applicationCounts.pending;
  }
  return summary;
}
