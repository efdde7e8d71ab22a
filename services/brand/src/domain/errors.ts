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
  /** Team: only the brand's members see its team, choose a handle or leave. */
  notATeamMember: () => new AppError('permission-denied', messages.notATeamMember),
  /** Team: only admins invite, list and cancel invitations, change roles and remove members. */
  notAnAdmin: () => new AppError('permission-denied', messages.onlyAdminsCan),
  /** Team: no such member in this brand. */
  memberNotFound: () => new AppError('not-found', messages.memberNotFound),
  /** Team: the last admin can neither leave, be removed nor be demoted. */
  lastAdmin: () => new AppError('conflict', messages.lastAdmin),
  /** Team: the brand sent its limit of invitations in the window. */
  tooManyInvitations: () => new AppError('resource-exhausted', messages.tooManyInvitations),
  /** Team: no pending invitation with this id in the brand. */
  invitationNotFound: () => new AppError('not-found', messages.invitationNotFound),
  /** Joining: no invitation has this token. */
  invitationInvalid: () => new AppError('not-found', messages.invitationInvalid),
  invitationExpired: () => new AppError('conflict', messages.invitationExpired),
  invitationUsed: () => new AppError('conflict', messages.invitationUsed),
  invitationCancelled: () => new AppError('conflict', messages.invitationCancelled),
  /** Joining: the account's e-mail is not the invited one. */
  invitationEmailMismatch: () =>
    new AppError('invalid-argument', messages.invitationEmailMismatch, {
      fields: { email: messages.invitationEmailMismatch },
    }),
  /** Joining: the user is already a member of a brand. */
  alreadyInABrand: () => new AppError('conflict', messages.alreadyInABrand),
  /** The invitation mail could not be handed to the SMTP server (the invitation is cancelled). */
  invitationMailFailed: (cause: unknown) => failedBecauseOf(messages.requestProblem, cause),
  /** Spec §8: any other failure updating the brand profile. */
  updateFailed: (cause: unknown) => failedBecauseOf(messages.updateAccountFailed, cause),
};
