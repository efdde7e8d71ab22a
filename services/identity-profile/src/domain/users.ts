/**
 * The signed-in user's own record: read it, and update the account form's
 * fields (spec §4 "Flows", §5 "Account form", §7 updateAccount). Changing
 * the e-mail changes Keycloak first (it is the login) and reverts Keycloak
 * when our database refuses the change, so both always agree.
 */
import type { UserRecord } from '@raly/contracts/records';
import { emailSchema, interestsSchema, usernameSchema } from '@raly/contracts/validation';
import { AppError } from '@raly/service-kit/errors';
import { z } from 'zod';
import { KeycloakRequestError } from '../data-access/keycloak-users';
import { DuplicateUserError, type UserChanges } from '../data-access/user-repository';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { assertEmailFree, assertUsernameFree, duplicateToAppError, normalizeEmail, normalizeUsername } from './uniqueness';

/** The body of `PATCH /users/me` (docs/api.md): every field optional. */
export const updateOwnUserSchema = z
  .object({
    username: usernameSchema,
    email: emailSchema,
    phoneNumber: z.string().trim().max(32),
    interests: interestsSchema,
    notifications: z.object({ offers: z.boolean(), marketing: z.boolean() }).partial(),
    firstName: z.string().trim(),
    lastName: z.string().trim(),
  })
  .partial()
  .strict();

/**
 * The caller's own record.
 * @throws AppError not-found when the user has no record
 */
export async function getOwnUser(deps: IdentityDependencies, userId: string): Promise<UserRecord> {
  const user = await deps.users.findById(userId);
  if (!user) throw identityErrors.userNotFound();
  return user;
}

/**
 * Updates the caller's account form fields; unchanged values are not
 * re-checked (spec §5). Emits `identity.user.updated` when anything changed.
 * @param input the `PATCH /users/me` body, unparsed
 * @returns the record after the change (the same version when nothing changed)
 * @throws AppError invalid-argument, not-found, username-taken, email-taken,
 *   internal 'There was a problem updating your account. Try again.'
 */
export async function updateOwnUser(deps: IdentityDependencies, userId: string, input: unknown): Promise<UserRecord> {
  const patch = updateOwnUserSchema.parse(input);
  const current = await getOwnUser(deps, userId);
  const changes = changedFields(current, patch);
  if (Object.keys(changes).length === 0) return current;

  if (changes.username !== undefined) await assertUsernameFree(deps, changes.username as string);
  if (changes.email !== undefined) {
    await assertEmailFree(deps, changes.email);
    await changeKeycloakEmail(deps, userId, changes.email);
  }
  try {
    const updated = await deps.users.updateWithEvent(userId, changes);
    if (!updated) throw identityErrors.userNotFound();
    deps.eventsCommitted();
    return updated;
  } catch (error) {
    if (changes.email !== undefined) await revertKeycloakEmail(deps, userId, current.email);
    throw toUpdateError(error);
  }
}

type UserPatch = z.infer<typeof updateOwnUserSchema>;

/** The columns that really change, with usernames and e-mails normalised. */
function changedFields(current: UserRecord, patch: UserPatch): UserChanges {
  const isBrandUser = current.brand !== null;
  const changes: UserChanges = {};
  if (patch.username !== undefined && normalizeUsername(patch.username) !== current.username) {
    if (isBrandUser) throw identityErrors.brandUserHasNoUsername();
    changes.username = normalizeUsername(patch.username);
  }
  if (patch.email !== undefined && normalizeEmail(patch.email) !== current.email) {
    changes.email = normalizeEmail(patch.email);
  }
  for (const field of ['firstName', 'lastName'] as const) {
    const value = patch[field];
    if (value === undefined || value === current[field]) continue;
    if (isBrandUser && value === '') throw identityErrors.brandUserNameRequired(field);
    changes[field] = value;
  }
  if (patch.phoneNumber !== undefined && patch.phoneNumber !== current.phoneNumber) {
    changes.phoneNumber = patch.phoneNumber;
  }
  if (patch.interests !== undefined && patch.interests.join() !== current.interests.join()) {
    changes.interests = patch.interests;
  }
  const { offers, marketing } = patch.notifications ?? {};
  if (offers !== undefined && offers !== current.notifications.offers) changes.notifyOffers = offers;
  if (marketing !== undefined && marketing !== current.notifications.marketing) changes.notifyMarketing = marketing;
  return changes;
}

async function changeKeycloakEmail(deps: IdentityDependencies, userId: string, email: string): Promise<void> {
  try {
    await deps.keycloak.changeEmail(userId, email);
  } catch (error) {
    if (error instanceof KeycloakRequestError && error.status === 409) throw identityErrors.emailTaken(error);
    throw identityErrors.updateAccountFailed(error);
  }
}

/** Compensation: our database refused the change Keycloak already made. */
async function revertKeycloakEmail(deps: IdentityDependencies, userId: string, email: string): Promise<void> {
  try {
    await deps.keycloak.changeEmail(userId, email);
  } catch (error) {
    deps.logger.error({ err: error, userId }, 'compensation failed: Keycloak e-mail differs from the user record');
  }
}

function toUpdateError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof DuplicateUserError && error.field !== 'id') return duplicateToAppError(error);
  return identityErrors.updateAccountFailed(error);
}
