/**
 * Applications: an onboarded, unsuspended creator applies once to
 * an open offer with a pitch and an optional proposed rate; the applicant
 * withdraws it while pending; the brand's members accept or decline it.
 * Accepting fills a place of the offer in the same transaction, under the
 * offer's row lock: the last place closes the offer (reason `filled`), and
 * when every place is filled no more applications are accepted (declining
 * still is). Nobody is declined automatically. Every change raises the
 * application's snapshot, and a filled place the offer's, in one transaction.
 * An accept or decline records the deciding member's handle in the team
 * (`decidedBy`, docs/product-spec.md §13.2), which only the brand's members read.
 */
import { randomUUID } from 'node:crypto';
import {
  applicantViewOf,
  applicationFormSchema,
  type ApplicationRecord,
  type OfferRecord,
} from '@raly/contracts/offers';
import type { Caller } from '@raly/service-kit/auth';
import {
  DuplicateApplicationError,
  type ApplicationDecision,
} from '../data-access/application-repository';
import type { KnownUser } from '../data-access/user-repository';
import type { OffersDependencies } from './dependencies';
import { offersErrors } from './errors';
import { applicationCreatedEvent, applicationUpdatedEvent, offerUpdatedEvent } from './events';
import { assertMember } from './offers';
import { checkedCaller } from './users';

/** Why a user may not apply, in the order the rules are told; undefined when they may. */
function applicantRefusal(user: KnownUser) {
  if (user.brandId) return offersErrors.brandUsersCannotApply();
  if (user.isSuspended) return offersErrors.creatorSuspended();
  if (!user.isOnboarded) return offersErrors.onboardingRequired();
  return undefined;
}

/** Refuses an offer that takes no applications (checked under the offer's lock). */
function assertTakesApplications(offer: OfferRecord): void {
  if (offer.status === 'draft') throw offersErrors.offerNotFound();
  if (offer.status !== 'open' || Date.parse(offer.applyBy) <= Date.now())
    throw offersErrors.offerNotOpen();
}

/**
 * `POST /offers/:id/applications`: the caller applies to an open offer.
 * @param input `applicationFormSchema`, unparsed
 * @returns the new ApplicationRecord (pending, version 1)
 * @throws AppError invalid-argument; permission-denied messages.brandUsersCannotApply,
 *   creatorSuspended, onboardingRequired; not-found messages.offerNotFound (also a draft);
 *   conflict messages.offerNotOpen, alreadyApplied
 */
export async function applyToOffer(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
  input: unknown,
): Promise<ApplicationRecord> {
  const form = applicationFormSchema.parse(input);
  const user = await checkedCaller(dependencies, caller, applicantRefusal);
  let application: ApplicationRecord | null;
  try {
    application = await dependencies.applications.createWithEvent(
      {
        id: randomUUID(),
        offerId,
        creatorId: user.id,
        pitch: form.pitch,
        proposedRate: form.proposedRate ?? null,
      },
      assertTakesApplications,
      applicationCreatedEvent,
    );
  } catch (error) {
    if (error instanceof DuplicateApplicationError) throw offersErrors.alreadyApplied(error);
    throw error;
  }
  if (!application) throw offersErrors.offerNotFound();
  return application;
}

/** Refuses a decided application. */
function assertPending(application: ApplicationRecord): void {
  if (application.status !== 'pending') throw offersErrors.applicationDecided();
}

/**
 * Changes an application's status under the locks, once who may do it has been checked.
 * @throws AppError not-found messages.applicationNotFound; what `decide` throws
 */
async function decide(
  dependencies: OffersDependencies,
  applicationId: string,
  decision: (application: ApplicationRecord, offer: OfferRecord) => ApplicationDecision,
): Promise<ApplicationRecord> {
  const decided = await dependencies.applications.decideWithEvents(
    applicationId,
    decision,
    applicationUpdatedEvent,
  );
  if (!decided) throw offersErrors.applicationNotFound();
  return decided;
}

/**
 * Checks that the caller is a member of the application's brand and asks
 * identity-profile for their handle in its team, which the decision records.
 * @returns the member's handle, or null when they have none
 * @throws AppError not-found messages.applicationNotFound, permission-denied; unavailable
 *   when identity-profile cannot be reached
 */
async function deciderHandleOf(
  dependencies: OffersDependencies,
  caller: Caller,
  applicationId: string,
): Promise<string | null> {
  const application = await dependencies.applications.findById(applicationId);
  if (!application) throw offersErrors.applicationNotFound();
  await assertMember(dependencies, caller, application.brandId);
  return dependencies.identity.memberHandleOf(caller.accessToken);
}

/**
 * `POST /applications/:id/withdraw`: the applicant withdraws a pending application.
 * @throws AppError not-found (unknown, or not the caller's), conflict messages.applicationDecided
 */
export async function withdrawApplication(
  dependencies: OffersDependencies,
  caller: Caller,
  applicationId: string,
): Promise<ApplicationRecord> {
  const application = await dependencies.applications.findById(applicationId);
  if (!application || application.creatorId !== caller.userId)
    throw offersErrors.applicationNotFound();
  return decide(dependencies, applicationId, (current) => {
    assertPending(current);
    return { status: 'withdrawn' };
  });
}

/** Refuses a decision on an application no longer pending (the transaction is rolled back). */
class NoLongerPending extends Error {}

/**
 * A suspended creator's pending applications are withdrawn (docs/console.md), each with its
 * usual `offers.application.updated` snapshot. Idempotent: an application decided meanwhile is
 * left as it is, so a redelivered event changes nothing.
 * @returns how many applications this call withdrew
 */
export async function withdrawApplicationsOfSuspendedCreator(
  dependencies: OffersDependencies,
  creatorId: string,
): Promise<number> {
  const pending = (await dependencies.applications.listByCreator(creatorId)).filter(
    (application) => application.status === 'pending',
  );
  let withdrawn = 0;
  for (const application of pending) {
    try {
      await dependencies.applications.decideWithEvents(
        application.id,
        (current) => {
          if (current.status !== 'pending') throw new NoLongerPending();
          return { status: 'withdrawn' };
        },
        applicationUpdatedEvent,
      );
      withdrawn += 1;
    } catch (error) {
      if (!(error instanceof NoLongerPending)) throw error;
    }
  }
  return withdrawn;
}

/**
 * `POST /applications/:id/accept`: a member accepts a pending application,
 * filling a place of the offer; the last place closes the offer (`filled`).
 * The answer and the event carry the member's handle (`decidedBy`) when they have one.
 * A closed offer is final unless it closed for its deadline (the brand then
 * still chooses among the pending applications).
 * @throws AppError not-found, permission-denied, conflict messages.applicationDecided,
 *   offerFull, offerClosed; unavailable when identity-profile cannot be reached
 */
export async function acceptApplication(
  dependencies: OffersDependencies,
  caller: Caller,
  applicationId: string,
): Promise<ApplicationRecord> {
  const decidedByHandle = await deciderHandleOf(dependencies, caller, applicationId);
  return decide(dependencies, applicationId, (current, offer) => {
    assertPending(current);
    if (offer.placesFilled >= offer.creatorsWanted) throw offersErrors.offerFull();
    if (offer.status === 'closed' && offer.closedReason !== 'deadline')
      throw offersErrors.offerClosed();
    const placesFilled = offer.placesFilled + 1;
    const filled = placesFilled === offer.creatorsWanted && offer.status === 'open';
    return {
      status: 'accepted',
      decidedByHandle,
      offer: {
        changes: filled
          ? { placesFilled, status: 'closed', closedReason: 'filled', closed: true }
          : { placesFilled },
        event: offerUpdatedEvent,
      },
    };
  });
}

/**
 * `POST /applications/:id/decline`: a member declines a pending application (also when the
 * offer is full), recording their handle (`decidedBy`) when they have one.
 * @throws AppError not-found, permission-denied, conflict messages.applicationDecided;
 *   unavailable when identity-profile cannot be reached
 */
export async function declineApplication(
  dependencies: OffersDependencies,
  caller: Caller,
  applicationId: string,
): Promise<ApplicationRecord> {
  const decidedByHandle = await deciderHandleOf(dependencies, caller, applicationId);
  return decide(dependencies, applicationId, (current) => {
    assertPending(current);
    return { status: 'declined', decidedByHandle };
  });
}

/**
 * `GET /offers/:id/applications`: the offer's applications, newest first, for its brand's members.
 * @throws AppError not-found (unknown, or a draft of another brand), permission-denied
 */
export async function offerApplications(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
): Promise<ApplicationRecord[]> {
  const offer = await dependencies.offers.findById(offerId);
  if (!offer) throw offersErrors.offerNotFound();
  try {
    await assertMember(dependencies, caller, offer.brandId);
  } catch (error) {
    if (offer.status === 'draft') throw offersErrors.offerNotFound();
    throw error;
  }
  return dependencies.applications.listByOffer(offerId);
}

/**
 * `GET /applications/mine`: the caller's applications, newest first, as their applicant sees
 * them (the brand's side, not which member decided: `applicantViewOf`).
 */
export async function myApplications(
  dependencies: OffersDependencies,
  caller: Caller,
): Promise<ApplicationRecord[]> {
  return (await dependencies.applications.listByCreator(caller.userId)).map(applicantViewOf);
}
