/**
 * Usernames and e-mails are unique case-insensitively: both are stored
 * lowercased (spec §5: the username is lowercased while typing anyway).
 * The checks here give the early answer; the database's unique indexes stay
 * the final arbiter of races.
 */
import type { AppError } from '@raly/service-kit/errors';
import type { DuplicateUserError } from '../data-access/user-repository';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';

/** The stored form of a username. */
export const normalizeUsername = (username: string): string => username.trim().toLowerCase();

/** The stored form of an e-mail. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * checkUsernameExists (spec §7).
 * @returns true when the username is taken (case-insensitively)
 */
export async function usernameExists(
  dependencies: Pick<IdentityDependencies, 'users'>,
  username: string,
): Promise<boolean> {
  return dependencies.users.isUsernameTaken(normalizeUsername(username));
}

/**
 * checkEmailExists (spec §7).
 * @returns true when an account has this e-mail (case-insensitively)
 */
export async function emailExists(
  dependencies: Pick<IdentityDependencies, 'users'>,
  email: string,
): Promise<boolean> {
  return dependencies.users.isEmailTaken(normalizeEmail(email));
}

/** @throws AppError username-taken 'Username already exists. Try another.' */
export async function assertUsernameFree(
  dependencies: IdentityDependencies,
  username: string,
): Promise<void> {
  if (await usernameExists(dependencies, username)) throw identityErrors.usernameTaken();
}

/** @throws AppError email-taken "There's already an account associated with this email" */
export async function assertEmailFree(
  dependencies: IdentityDependencies,
  email: string,
): Promise<void> {
  if (await emailExists(dependencies, email)) throw identityErrors.emailTaken();
}

/** The answer for a write the unique indexes refused. */
export function duplicateToAppError(error: DuplicateUserError): AppError {
  if (error.field === 'username') return identityErrors.usernameTaken(error);
  if (error.field === 'email') return identityErrors.emailTaken(error);
  return identityErrors.createAccountFailed(error);
}
