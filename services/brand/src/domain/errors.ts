/**
 * Every expected failure of the brand service, with the spec text the
 * caller sees (spec §5, §8), in one table.
 */
import { messages } from '@raly/contracts/messages';
import { AppError, failedBecauseOf } from '@raly/service-kit/errors';

export const brandErrors = {
  /** No brand with this id or username. */
  brandNotFound: () => new AppError('not-found', messages.pageNotFound),
  /** Only members of the brand may read its private view or change it (our rule; the spec leaves access rules open, §6). */
  notAMember: () => new AppError('permission-denied', messages.updateAccountFailed),
  /** Spec §8: duplicate username on update (or on creation, raced). */
  usernameTaken: (cause?: unknown) =>
    new AppError('username-taken', messages.usernameExists, { cause }),
  /** Spec §8: any other failure creating the brand during registration. */
  createFailed: (cause: unknown) => failedBecauseOf(messages.createAccountFailed, cause),
  /** Spec §8: any other failure updating the brand profile. */
  updateFailed: (cause: unknown) => failedBecauseOf(messages.updateAccountFailed, cause),
};
