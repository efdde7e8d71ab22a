/**
 * Applications through the BFF (docs/api.md "Offers"): a creator
 * applies to an open offer, lists and withdraws their own; the members of
 * the offer's brand list them and accept or decline. services/offers
 * decides who may do what; every snapshot a command answers goes through
 * `applySnapshot`, so the applicant's and the brand's tabs get it at once
 * (docs/adr/0007). Which member accepted or declined (`decidedBy`) reaches
 * the brand's members only: the applicant's answers are `applicantViewOf`
 * the snapshot, as are their pushes (../live/pushers).
 */
import { applicantViewOf, type ApplicationRecord } from '@raly/contracts/offers';
import type { Caller } from '@raly/service-kit/auth';
import type { ApplicationDecision, OffersClient } from '../data-access/offers-client';
import { answerWithNewest, type RecordStore } from './record-store';

export interface ApplicationsDependencies {
  offers: OffersClient;
  records: RecordStore;
}

/**
 * POST /api/offers/:id/applications: the caller applies with `form`
 * (`applicationFormSchema`: pitch, optional proposed rate).
 * @returns the new application (status `pending`)
 * @throws AppError as the offers service answered (400 with fields; 403 brand users,
 *   not onboarded, suspended; 404; 409 already applied, offer not open, full)
 */
export async function applyToOffer(
  dependencies: ApplicationsDependencies,
  caller: Caller,
  offerId: string,
  form: unknown,
): Promise<ApplicationRecord> {
  const application = await dependencies.offers.apply(caller.accessToken, offerId, form);
  return applicantViewOf(await answerWithNewest(dependencies.records, 'application', application));
}

/**
 * POST /api/applications/:id/withdraw (the applicant, while pending) and
 * /accept, /decline (the offer brand's members, while pending).
 * @returns the application after the decision (the applicant's view for a withdrawal;
 *   the member's handle in `decidedBy` for an accept or decline by a member who has one)
 * @throws AppError as the offers service answered (403, 404, 409 already decided or offer full)
 */
export async function decideApplication(
  dependencies: ApplicationsDependencies,
  caller: Caller,
  applicationId: string,
  decision: ApplicationDecision,
): Promise<ApplicationRecord> {
  const application = await dependencies.offers.decideApplication(
    caller.accessToken,
    applicationId,
    decision,
  );
  const newest = await answerWithNewest(dependencies.records, 'application', application);
  return decision === 'withdraw' ? applicantViewOf(newest) : newest;
}

/**
 * GET /api/offers/:id/applications: the offer's applications, for its brand's members.
 * @throws AppError as the offers service answered (403 notABrandMember, 404)
 */
export function listOfferApplications(
  dependencies: Pick<ApplicationsDependencies, 'offers'>,
  caller: Caller,
  offerId: string,
): Promise<ApplicationRecord[]> {
  return dependencies.offers.listApplications(caller.accessToken, offerId);
}

/**
 * GET /api/me/applications: the caller's own applications.
 * @throws AppError as the offers service answered
 */
export function listMyApplications(
  dependencies: Pick<ApplicationsDependencies, 'offers'>,
  caller: Caller,
): Promise<ApplicationRecord[]> {
  return dependencies.offers.listMyApplications(caller.accessToken);
}
