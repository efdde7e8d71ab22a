/**
 * Every expected failure of the collaborations service, with the message the
 * caller sees (`@raly/contracts/messages`), in one table.
 */
import { messages } from '@raly/contracts/messages';
import { AppError } from '@raly/service-kit/errors';

const conflict = (message: string) => () => new AppError('conflict', message);

export const collaborationsErrors = {
  /** No such collaboration, or the caller is not one of its parties (never told apart). */
  collaborationNotFound: () => new AppError('not-found', messages.collaborationNotFound),
  /** No such message, or the caller is not a party of its collaboration (never told apart). */
  messageNotFound: () => new AppError('not-found', messages.messageNotFound),
  /** A cancelled collaboration takes no more messages. */
  collaborationCancelled: conflict(messages.collaborationCancelled),
  /** A body that looks like it holds an e-mail address or a phone number, not yet confirmed. */
  contactDetails: () => new AppError('contact-details', messages.contactDetailsNotice),
  /** Work on a completed or cancelled collaboration. */
  collaborationNotActive: conflict(messages.collaborationNotActive),
  /** A brand's action asked by the creator. */
  onlyTheBrandCan: () => new AppError('permission-denied', messages.onlyTheBrandCan),
  /** A creator's action asked by a member of the brand. */
  onlyTheCreatorCan: () => new AppError('permission-denied', messages.onlyTheCreatorCan),
  /** An image that is not one of the collaboration's submissions'. */
  imageNotFound: () => new AppError('not-found', messages.pageNotFound),
  deliverableNotFound: () => new AppError('not-found', messages.deliverableNotFound),
  /** Splitting the work again after something was handed in. */
  deliverablesLocked: conflict(messages.deliverablesLocked),
  /** A submission of a deliverable submitted, approved or disputed. */
  deliverableNotAwaitingWork: conflict(messages.deliverableNotAwaitingWork),
  /** A review of a deliverable with no submission waiting. */
  deliverableNotSubmitted: conflict(messages.deliverableNotSubmitted),
  /** Changes requested past the last round. */
  noRoundsLeft: conflict(messages.noRoundsLeft),
  /** A dispute while rounds of changes remain. */
  disputeNotYet: conflict(messages.disputeNotYet),
  paymentNotDue: conflict(messages.paymentNotDue),
  paymentNotMarked: conflict(messages.paymentNotMarked),
  paymentAlreadyConfirmed: conflict(messages.paymentAlreadyConfirmed),
  /** A review of a collaboration that is not completed (yet, or cancelled). */
  reviewNotYet: conflict(messages.reviewNotYet),
  /** A side's second review of the same collaboration. */
  reviewAlreadyLeft: conflict(messages.reviewAlreadyLeft),
  /** Cancelling without a reason where one is owed to the other side. */
  cancelReasonRequired: () =>
    new AppError('invalid-argument', messages.cancelReasonRequired, {
      fields: { reason: messages.cancelReasonRequired },
    }),
};
