/**
 * Every expected failure of identity-profile, with the spec text the caller
 * sees (spec §5, §8), in one table. Use cases throw these; the central
 * handler of the service kit turns them into answers.
 */
import { messages } from '@raly/contracts/messages';
import { AppError, failedBecauseOf } from '@raly/service-kit/errors';

export const identityErrors = {
  /** Spec §8: duplicate username on creation or update. */
  usernameTaken: (cause?: unknown) =>
    new AppError('username-taken', messages.usernameExists, { cause }),
  /** Spec §5: the e-mail belongs to another account. */
  emailTaken: (cause?: unknown) => new AppError('email-taken', messages.emailTaken, { cause }),
  /** No creator has this username (public profiles): the spec's page-not-found text. */
  creatorNotFound: () => new AppError('not-found', messages.pageNotFound),
  /** The creator is suspended (docs/console.md): their public profile shows nothing of them. */
  creatorUnavailable: () => new AppError('not-found', messages.creatorUnavailable),
  /** A staff decision names no creator (unknown id, or a brand-side user). */
  noSuchCreator: () => new AppError('not-found', 'No such creator.'),
  /** A staff contact view names a brand no user record belongs to. */
  noSuchBrand: () => new AppError('not-found', 'No such brand.'),
  /** The token's user has no record here. */
  userNotFound: () => new AppError('not-found', 'User record not found'),
  /** Brand users have no username of their own (spec §6: the field is hidden). */
  brandUserHasNoUsername: () =>
    new AppError('invalid-argument', messages.requestProblem, {
      fields: { username: messages.requestProblem },
    }),
  /** Brand registration needs the brand service (comes with the brands issue). */
  /** Spec §8: any other failure creating an account. */
  createAccountFailed: (cause: unknown) => failedBecauseOf(messages.createAccountFailed, cause),
  /** Spec §5: forgot-password needs an e-mail that has an account. */
  emailUnknown: () =>
    new AppError('not-found', messages.emailUnknown, { fields: { email: messages.emailUnknown } }),
  /** The reset e-mail could not be handed to the SMTP server. */
  resetMailFailed: (cause: unknown) => failedBecauseOf(messages.requestProblem, cause),
  /**
   * Spec §8 "Reset failure": unknown, used or expired code, a refused
   * password, or Keycloak failing; the cause is only logged.
   */
  resetFailed: (cause: unknown, fields?: Record<string, string>) =>
    new AppError('invalid-argument', messages.requestProblem, { cause, fields }),
  /** An onboarding step the user's kind does not have (creator: terms, interests, connects, wallet; brand: terms, brand). */
  onboardingStepInvalid: (step: string) =>
    new AppError('invalid-argument', messages.genericProblem, {
      fields: { step: `${step} is not an onboarding step of this user` },
    }),
  /** Spec §6: brand users have no interests. */
  brandUserHasNoInterests: () =>
    new AppError('invalid-argument', messages.requestProblem, {
      fields: { interests: messages.requestProblem },
    }),
  /** Teams: a creator account cannot join a brand. */
  creatorCannotJoinBrand: () => new AppError('permission-denied', messages.creatorCannotJoinBrand),
  /** Teams: the user already belongs to a brand. */
  alreadyInABrand: () => new AppError('conflict', messages.alreadyInABrand),
  /** Teams: registering from an invitation with another e-mail than the invited one. */
  invitationEmailMismatch: () =>
    new AppError('invalid-argument', messages.invitationEmailMismatch, {
      fields: { email: messages.invitationEmailMismatch },
    }),
  /** Spec §8: any other failure updating an account. */
  updateAccountFailed: (cause: unknown) => failedBecauseOf(messages.updateAccountFailed, cause),
};
