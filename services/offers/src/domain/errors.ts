/**
 * Every expected failure of the offers service, with the message the caller
 * sees (`@raly/contracts/messages`), in one table.
 */
import { messages } from '@raly/contracts/messages';
import { AppError } from '@raly/service-kit/errors';

export const offersErrors = {
  /** No such offer, or a draft seen by someone outside its brand. */
  offerNotFound: () => new AppError('not-found', messages.offerNotFound),
  /** No such application (or not the caller's to see). */
  applicationNotFound: () => new AppError('not-found', messages.applicationNotFound),
  /** Only members of the brand create, edit, open and close its offers and decide on applications. */
  notABrandMember: () => new AppError('permission-denied', messages.notABrandMember),
  /** A suspended brand opens no offer. */
  brandSuspended: () => new AppError('permission-denied', messages.brandSuspended),
  /** A suspended creator applies to no offer. */
  creatorSuspended: () => new AppError('permission-denied', messages.creatorSuspended),
  /** Brand users never apply. */
  brandUsersCannotApply: () => new AppError('permission-denied', messages.brandUsersCannotApply),
  /** Only onboarded creators apply (spec §4). */
  onboardingRequired: () => new AppError('permission-denied', messages.onboardingRequired),
  /** One application per creator and offer. */
  alreadyApplied: (cause?: unknown) => new AppError('conflict', messages.alreadyApplied, { cause }),
  /** Only open offers before their apply-by date take applications. */
  offerNotOpen: () => new AppError('conflict', messages.offerNotOpen),
  /** A closed offer is final. */
  offerClosed: () => new AppError('conflict', messages.offerClosed),
  /** Every place is filled: no more accepts. */
  offerFull: () => new AppError('conflict', messages.offerFull),
  /** Only pending applications are accepted, declined or withdrawn. */
  applicationDecided: () => new AppError('conflict', messages.applicationDecided),
  /** Opening (or saving) an offer whose apply-by date has passed. */
  applyByPassed: () =>
    new AppError('invalid-argument', messages.applyByInFuture, {
      fields: { applyBy: messages.applyByInFuture },
    }),
  /** Fewer creators wanted than places already filled. */
  creatorsWantedBelowPlacesFilled: () =>
    new AppError('invalid-argument', messages.creatorsWantedBelowPlacesFilled, {
      fields: { creatorsWanted: messages.creatorsWantedBelowPlacesFilled },
    }),
};
