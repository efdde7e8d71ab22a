/**
 * Joining a brand's team from an invitation, and keeping the user record's
 * brand in step with services/brand's membership (the team's owner).
 *
 * Registering from an invitation (`POST /accounts/members`):
 *   validate → preview the invitation (services/brand: usable, its e-mail)
 *     → the e-mail must be the invited one → assertUsernameFree(handle) → assertEmailFree
 *     → createKeycloakUser
 *     → accept the invitation (services/brand: spends it, claims the handle, adds the member)
 *     ↳ refused → deleteKeycloakUser
 *     → saveMemberUser (brand set, not admin, brand onboarding step done; terms still to do)
 *     ↳ failed → deleteKeycloakUser (the member row stays: logged loudly)
 * An existing brand-side user without a brand (`POST /users/me/team`):
 *   creator → refused; already in a brand → refused → accept the invitation → save the brand.
 * Sync (`POST /brand-memberships/sync`, after a member left or was removed or changed role):
 *   services/brand's membership decides the record's brand and admin flag.
 */
import type { InvitationPreview } from '@raly/contracts/teams';
import {
  invitationPreviewRequestSchema,
  joinTeamSchema,
  membershipSyncSchema,
} from '@raly/contracts/teams';
import { isCreatorAccount, type UserRecord } from '@raly/contracts/records';
import {
  memberRegistrationSchema,
  normalizeEmail,
  normalizeUsername,
} from '@raly/contracts/validation';
import { DuplicateUserError, type UserChanges } from '../data-access/user-repository';
import { createKeycloakUser, deleteKeycloakUser } from './accounts';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { userCreatedEvent } from './events';
import { assertEmailFree, duplicateToAppError } from './uniqueness';
import { assertUsernameFree } from './usernames';
import { getOwnUser, saveChanges } from './users';

/**
 * `POST /queries/invitation-preview` (BFF): what the invitation's landing page shows.
 * @param input `{ token }`, unparsed
 * @throws AppError as services/brand answered (404 unknown, 409 expired, used or cancelled)
 */
export async function previewInvitation(
  dependencies: IdentityDependencies,
  input: unknown,
): Promise<InvitationPreview> {
  const { token } = invitationPreviewRequestSchema.parse(input);
  return dependencies.brands.previewInvitation(token);
}

/**
 * `POST /accounts/members` (BFF): registers a brand member from an invitation.
 * @param input `memberRegistrationSchema`, unparsed
 * @returns the new user's id
 * @throws AppError invalid-argument (the form; the e-mail not the invited one), username-taken
 *   (the handle), email-taken, the invitation's refusal (404, 409), internal
 */
export async function createMemberAccount(
  dependencies: IdentityDependencies,
  input: unknown,
): Promise<{ userId: string }> {
  const registration = memberRegistrationSchema.parse(input);
  const email = normalizeEmail(registration.email);
  const handle = normalizeUsername(registration.handle);
  const invitation = await dependencies.brands.previewInvitation(registration.token);
  if (invitation.email !== email) throw identityErrors.invitationEmailMismatch();
  await assertUsernameFree(dependencies, handle);
  await assertEmailFree(dependencies, email);
  const userId = await createKeycloakUser(dependencies, email, registration.password);
  let brandId: string;
  try {
    ({ brandId } = await dependencies.brands.acceptInvitation({
      token: registration.token,
      userId,
      email,
      handle,
    }));
  } catch (error) {
    await deleteKeycloakUser(dependencies, userId);
    throw error;
  }
  try {
    await dependencies.users.insertWithEvent(
      {
        id: userId,
        email,
        firstName: registration.firstName,
        lastName: registration.lastName,
        brandId,
        brandIsAdmin: false,
        onboardingTerms: false,
        // The brand exists: a member has no brand step to do (terms still).
        onboardingBrand: true,
        notifyOffers: false,
        notifyMarketing: true,
      },
      userCreatedEvent,
    );
  } catch (error) {
    dependencies.logger.error(
      { err: error, brandId, userId },
      'member registration: orphan member',
    );
    await deleteKeycloakUser(dependencies, userId);
    throw error instanceof DuplicateUserError
      ? duplicateToAppError(error)
      : identityErrors.createAccountFailed(error);
  }
  return { userId };
}

/**
 * `POST /users/me/team`: a signed-in brand-side user without a brand joins from an invitation.
 * @param input `{ token, handle }`, unparsed
 * @returns the record after joining (brand set, not admin, brand step done)
 * @throws AppError permission-denied (a creator), conflict (already in a brand), the invitation's
 *   refusal (404, 409; 400 when it was sent to another e-mail), username-taken (the handle)
 */
export async function joinTeam(
  dependencies: IdentityDependencies,
  userId: string,
  input: unknown,
): Promise<UserRecord> {
  const { token, handle } = joinTeamSchema.parse(input);
  const user = await getOwnUser(dependencies, userId);
  if (isCreatorAccount(user)) throw identityErrors.creatorCannotJoinBrand();
  if (user.brand) throw identityErrors.alreadyInABrand();
  const { brandId } = await dependencies.brands.acceptInvitation({
    token,
    userId,
    email: user.email,
    handle: normalizeUsername(handle),
  });
  return saveChanges(dependencies, userId, {
    brandId,
    brandIsAdmin: false,
    onboardingBrand: true,
  });
}

/**
 * `POST /brand-memberships/sync` (BFF): the user's record follows services/brand's
 * membership of the user in the brand (joined, left, removed, role changed).
 * @param input `{ userId, brandId }`, unparsed
 * @returns the record after the change (the same version when nothing changed)
 * @throws AppError not-found (no such user), as services/brand answered
 */
export async function syncMembership(
  dependencies: IdentityDependencies,
  input: unknown,
): Promise<UserRecord> {
  const { userId, brandId } = membershipSyncSchema.parse(input);
  const user = await getOwnUser(dependencies, userId);
  const membership = await dependencies.brands.membership(brandId, userId);
  const changes: UserChanges = {};
  if (membership.isMember) {
    if (user.brand?.id !== brandId) changes.brandId = brandId;
    if (user.brand?.isAdmin !== membership.isAdmin) changes.brandIsAdmin = membership.isAdmin;
  } else if (user.brand?.id === brandId) {
    changes.brandId = null;
    changes.brandIsAdmin = null;
  }
  if (Object.keys(changes).length === 0) return user;
  return saveChanges(dependencies, userId, changes);
}
