/**
 * Every expected failure of the collaborations service, with the message the
 * caller sees (`@raly/contracts/messages`), in one table.
 */
import { messages } from '@raly/contracts/messages';
import { AppError } from '@raly/service-kit/errors';

export const collaborationsErrors = {
  /** No such collaboration, or the caller is not one of its parties (never told apart). */
  collaborationNotFound: () => new AppError('not-found', messages.collaborationNotFound),
  /** A cancelled collaboration takes no more messages. */
  collaborationCancelled: () => new AppError('conflict', messages.collaborationCancelled),
  /** A body that looks like it holds an e-mail address or a phone number, not yet confirmed. */
  contactDetails: () => new AppError('contact-details', messages.contactDetailsNotice),
};
