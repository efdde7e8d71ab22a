/**
 * createAccount (spec §7) as a saga over Keycloak, services/brand and our
 * database. A creator:
 *
 *   validate → assertUsernameFree → assertEmailFree → createKeycloakUser
 *     → saveUser (+ the username claim + identity.user.created, one transaction)
 *     ↳ saving failed → deleteKeycloakUser (compensation)
 *
 * A brand (spec §4 "Registration", §3 brand-side user record):
 *
 *   validate → assertUsernameFree → assertEmailFree → createKeycloakUser
 *     → createBrand (services/brand; brand + admin member)
 *     ↳ failed → deleteKeycloakUser
 *     → saveBrandUser (+ the brand's username claim + identity.user.created, one transaction)
 *     ↳ failed → deleteBrand → deleteKeycloakUser
 *
 * If Keycloak refuses, nothing is saved. The username registry's key is the
 * final arbiter of a race between two registrations: the loser's earlier
 * steps are undone and it answers 'Username already exists. Try another.'.
 */
import {
  createAccountSchema,
  normalizeEmail,
  normalizeUsername,
  type BrandRegistration,
} from '@raly/contracts/validation';
import { AppError } from '@raly/service-kit/errors';
import { BrandUsernameTakenError } from '../data-access/brand-client';
import { KeycloakRequestError } from '../data-access/keycloak-users';
import { DuplicateUserError, type NewUser } from '../data-access/user-repository';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { userCreatedEvent } from './events';
import { assertEmailFree, duplicateToAppError } from './uniqueness';
import { assertUsernameFree, usernameChange } from './usernames';

/**
 * Registers a creator or a brand (spec §4 "Registration").
 * @param input the createAccount command (`createAccountSchema`), unparsed
 * @returns the new user's id (the Keycloak user id)
 * @throws AppError invalid-argument (ZodError), username-taken, email-taken,
 *   internal 'There was a problem creating your account. Try again.'
 */
export async function createAccount(
  dependencies: IdentityDependencies,
  input: unknown,
): Promise<{ userId: string }> {
  const command = createAccountSchema.parse(input);
  if (command.isBrand) return createBrandAccount(dependencies, command.registration);
  const username = normalizeUsername(command.registration.username);
  const email = normalizeEmail(command.registration.email);

  await assertUsernameFree(dependencies, username);
  await assertEmailFree(dependencies, email);
  const userId = await createKeycloakUser(dependencies, email, command.registration.password);
  try {
    await dependencies.users.insertWithEvent(
      newCreator({ id: userId, username, email }),
      userCreatedEvent,
      usernameChange('user', userId, null, username),
    );
  } catch (error) {
    await deleteKeycloakUser(dependencies, userId);
    throw error instanceof DuplicateUserError
      ? duplicateToAppError(error)
      : identityErrors.createAccountFailed(error);
  }
  return { userId };
}

/**
 * The brand branch of {@link createAccount}: Keycloak user, brand in
 * services/brand, brand-side user record; all or nothing.
 */
async function createBrandAccount(
  dependencies: IdentityDependencies,
  registration: BrandRegistration,
): Promise<{ userId: string }> {
  const username = normalizeUsername(registration.username);
  const email = normalizeEmail(registration.email);

  await assertUsernameFree(dependencies, username);
  await assertEmailFree(dependencies, email);
  const userId = await createKeycloakUser(dependencies, email, registration.password);
  let brandId: string;
  try {
    brandId = await dependencies.brands.create({
      creatorUserId: userId,
      username,
      company: registration.company,
      websiteUrl: registration.website,
    });
  } catch (error) {
    await deleteKeycloakUser(dependencies, userId);
    throw error instanceof BrandUsernameTakenError
      ? identityErrors.usernameTaken(error)
      : identityErrors.createAccountFailed(error);
  }
  try {
    const user = newBrandUser({
      id: userId,
      email,
      firstName: registration.firstName,
      lastName: registration.lastName,
      brandId,
    });
    await dependencies.users.insertWithEvent(
      user,
      userCreatedEvent,
      usernameChange('brand', brandId, null, username),
    );
  } catch (error) {
    await deleteBrand(dependencies, brandId);
    await deleteKeycloakUser(dependencies, userId);
    throw error instanceof DuplicateUserError
      ? duplicateToAppError(error)
      : identityErrors.createAccountFailed(error);
  }
  return { userId };
}

/**
 * A creator's record at creation (spec §3, §4): every onboarding flag and
 * permission false; offers and marketing notifications on.
 */
export function newCreator(user: { id: string; username: string; email: string }): NewUser {
  return {
    ...user,
    onboardingTerms: false,
    onboardingInterests: false,
    onboardingConnects: false,
    onboardingWallet: false,
    notifyOffers: true,
    notifyMarketing: true,
  };
}

/**
 * A brand's user record at creation (spec §3, §6): no username, onboarding
 * flags terms and brand false, offers off and marketing on; the creating
 * user is the brand's admin.
 */
export function newBrandUser(user: {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  brandId: string;
}): NewUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    brandId: user.brandId,
    brandIsAdmin: true,
    onboardingTerms: false,
    onboardingBrand: false,
    notifyOffers: false,
    notifyMarketing: true,
  };
}

/** Creates the Keycloak user (the login). @throws AppError email-taken, invalid-argument, internal */
export async function createKeycloakUser(
  dependencies: IdentityDependencies,
  email: string,
  password: string,
): Promise<string> {
  try {
    return await dependencies.keycloak.create({ email, password });
  } catch (error) {
    // Keycloak holds the e-mail (also its username) although our table does not.
    if (error instanceof KeycloakRequestError && error.status === 409)
      throw identityErrors.emailTaken(error);
    // Keycloak refused a value (400), already classified by data-access.
    if (error instanceof AppError) throw error;
    throw identityErrors.createAccountFailed(error);
  }
}

/** Saga compensation; a failure here leaves an orphan brand, so it is logged loudly. */
async function deleteBrand(dependencies: IdentityDependencies, brandId: string): Promise<void> {
  try {
    await dependencies.brands.delete(brandId);
  } catch (error) {
    dependencies.logger.error({ err: error, brandId }, 'compensation failed: orphan brand');
  }
}

/** Saga compensation; a failure here leaves an orphan Keycloak user, so it is logged loudly. */
export async function deleteKeycloakUser(
  dependencies: IdentityDependencies,
  userId: string,
): Promise<void> {
  try {
    await dependencies.keycloak.delete(userId);
  } catch (error) {
    dependencies.logger.error(
      { err: error, keycloakUserId: userId },
      'compensation failed: orphan Keycloak user',
    );
  }
}
