/**
 * The signed-in user's own record: read it, and update the account form's
 * fields (spec §4 "Flows", §5 "Account form", §7 updateAccount). Changing
 * the e-mail changes Keycloak first (it is the login), ends the user's other
 * Keycloak sessions (docs/api.md "Ending sessions"), and reverts Keycloak's
 * e-mail when a later step fails, so Keycloak and our database always agree.
 */
import type { UserRecord } from '@raly/contracts/records';
import {
  brandUserAccountUpdateSchema,
  creatorAccountUpdateSchema,
  normalizeEmail,
  normalizeUsername,
  type BrandUserAccountUpdate,
  type CreatorAccountUpdate,
} from '@raly/contracts/validation';
import type { Caller } from '@raly/service-kit/auth';
import { AppError } from '@raly/service-kit/errors';
import { KeycloakRequestError } from '../data-access/keycloak-users';
import { DuplicateUserError, type UserChanges } from '../data-access/user-repository';
import type { UsernameChange } from '../data-access/username-registry';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { userUpdatedEvent } from './events';
import { assertEmailFree, duplicateToAppError } from './uniqueness';
import { assertUsernameFree, usernameChange } from './usernames';

/**
 * The caller's own record.
 * @throws AppError not-found when the user has no record
 */
export async function getOwnUser(
  dependencies: IdentityDependencies,
  userId: string,
): Promise<UserRecord> {
  const user = await dependencies.users.findById(userId);
  if (!user) throw identityErrors.userNotFound();
  return user;
}

/**
 * Updates the caller's account form fields; unchanged values are not
 * re-checked (spec §5). A creator's body is checked with
 * `creatorAccountUpdateSchema` (username, email, phoneNumber, interests,
 * notifications), a brand user's with `brandUserAccountUpdateSchema`
 * (firstName, lastName, email, phoneNumber, notifications.marketing); saving
 * interests also sets the interests onboarding flag (spec §4). Emits
 * `identity.user.updated` when anything changed. An e-mail change also
 * ends every other Keycloak session of the user (all but the caller's
 * `sessionId`; all of them when the token names none), so they cannot refresh.
 * @param caller the verified caller: `userId` (`sub`) and `sessionId` (`sid`)
 * @param input the `PATCH /users/me` body, unparsed
 * @returns the record after the change (the same version when nothing changed)
 * @throws AppError invalid-argument, not-found, username-taken, email-taken,
 *   internal 'There was a problem updating your account. Try again.' (also when
 *   the other sessions cannot be ended: the e-mail is then reverted)
 */
export async function updateOwnUser(
  dependencies: IdentityDependencies,
  { userId, sessionId }: Pick<Caller, 'userId' | 'sessionId'>,
  input: unknown,
): Promise<UserRecord> {
  const current = await getOwnUser(dependencies, userId);
  const changes = changedFields(current, parseAccountUpdate(current, input));
  if (Object.keys(changes).length === 0) return current;

  if (changes.username !== undefined)
    await assertUsernameFree(dependencies, changes.username as string);
  if (changes.email !== undefined) {
    await assertEmailFree(dependencies, changes.email);
    await changeKeycloakEmail(dependencies, userId, changes.email);
    try {
      await dependencies.keycloak.endOtherSessions(userId, sessionId);
    } catch (error) {
      await revertKeycloakEmail(dependencies, userId, current.email);
      throw identityErrors.updateAccountFailed(error);
    }
  }
  try {
    const newUsername = changes.username === undefined ? current.username : changes.username;
    const usernames = usernameChange('user', userId, current.username, newUsername);
    return await saveChanges(dependencies, userId, changes, usernames);
  } catch (error) {
    if (changes.email !== undefined) await revertKeycloakEmail(dependencies, userId, current.email);
    throw error;
  }
}

/**
 * Writes the changes with the event they raise, `identity.user.updated`
 * (and, for a new username, claims it and releases the old one in the same
 * transaction); the relay publishes the event once it is committed.
 * @param usernames the registry change of a username change ({@link usernameChange})
 * @returns the new snapshot
 * @throws AppError not-found, username-taken, email-taken, internal 'There was a problem updating your account. Try again.'
 */
export async function saveChanges(
  dependencies: IdentityDependencies,
  userId: string,
  changes: UserChanges,
  usernames: UsernameChange = {},
): Promise<UserRecord> {
  try {
    const updated = await dependencies.users.updateWithEvent(
      userId,
      changes,
      userUpdatedEvent,
      usernames,
    );
    if (!updated) throw identityErrors.userNotFound();
    return updated;
  } catch (error) {
    throw toUpdateError(error);
  }
}

/** Either kind's update, read field by field. */
type AccountUpdate = Omit<CreatorAccountUpdate, 'notifications'> &
  Partial<Omit<BrandUserAccountUpdate, 'notifications'>> & {
    notifications?: { offers?: boolean; marketing?: boolean };
  };

/** The body checked with the schema of the user's kind (spec §5 "Account form", §6). */
function parseAccountUpdate(current: UserRecord, input: unknown): AccountUpdate {
  if (current.brand === null) return creatorAccountUpdateSchema.parse(input);
  if (input && typeof input === 'object' && 'username' in input)
    throw identityErrors.brandUserHasNoUsername();
  return brandUserAccountUpdateSchema.parse(input);
}

/** The columns that really change, with usernames and e-mails normalised. */
function changedFields(current: UserRecord, patch: AccountUpdate): UserChanges {
  const changes: UserChanges = {};
  if (patch.username !== undefined && normalizeUsername(patch.username) !== current.username) {
    changes.username = normalizeUsername(patch.username);
  }
  if (patch.email !== undefined && normalizeEmail(patch.email) !== current.email) {
    changes.email = normalizeEmail(patch.email);
  }
  for (const field of ['firstName', 'lastName', 'phoneNumber'] as const) {
    const value = patch[field];
    if (value !== undefined && value !== current[field]) changes[field] = value;
  }
  if (patch.interests !== undefined)
    Object.assign(changes, interestChanges(current, patch.interests));
  const { offers, marketing } = patch.notifications ?? {};
  if (offers !== undefined && offers !== current.notifications.offers)
    changes.notifyOffers = offers;
  if (marketing !== undefined && marketing !== current.notifications.marketing)
    changes.notifyMarketing = marketing;
  return changes;
}

/**
 * Saving interests sets the interests onboarding flag true (spec §4).
 * @returns the columns that change (none when both already hold)
 */
export function interestChanges(
  current: UserRecord,
  interests: UserRecord['interests'],
): UserChanges {
  const changes: UserChanges = {};
  if (interests.join() !== current.interests.join()) changes.interests = interests;
  if ((current.onboarding as { interests?: boolean }).interests !== true)
    changes.onboardingInterests = true;
  return changes;
}

async function changeKeycloakEmail(
  dependencies: IdentityDependencies,
  userId: string,
  email: string,
): Promise<void> {
  try {
    await dependencies.keycloak.changeEmail(userId, email);
  } catch (error) {
    if (error instanceof KeycloakRequestError && error.status === 409)
      throw identityErrors.emailTaken(error);
    // Keycloak refused the e-mail (400), already classified by data-access.
    if (error instanceof AppError) throw error;
    throw identityErrors.updateAccountFailed(error);
  }
}

/** Compensation: our database refused the change Keycloak already made. */
async function revertKeycloakEmail(
  dependencies: IdentityDependencies,
  userId: string,
  email: string,
): Promise<void> {
  try {
    await dependencies.keycloak.changeEmail(userId, email);
  } catch (error) {
    dependencies.logger.error(
      { err: error, userId },
      'compensation failed: Keycloak e-mail differs from the user record',
    );
  }
}

function toUpdateError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof DuplicateUserError && error.field !== 'id')
    return duplicateToAppError(error);
  return identityErrors.updateAccountFailed(error);
}
