/**
 * E-mails are unique case-insensitively (stored in `normalizeEmail` form of
 * `@raly/contracts/validation`). The checks here give the early answer; the
 * database's unique indexes stay the final arbiter of races, and a write
 * they refuse is answered by {@link duplicateToAppError}. Usernames have
 * their own registry: see `./usernames`.
 */
import { normalizeEmail } from '@raly/contracts/validation';
import type { AppError } from '@raly/service-kit/errors';
import type { DuplicateUserError } from '../data-access/user-repository';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';

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

/** @throws AppError email-taken "There's already an account associated with this email" */
export async function assertEmailFree(
  dependencies: IdentityDependencies,
  email: string,
): Promise<void> {
  if (await emailExists(dependencies, email)) throw identityErrors.emailTaken();
}

/** The answer for a write the unique indexes (or the username registry) refused. */
export function duplicateToAppError(error: DuplicateUserError): AppError {
  if (error.field === 'username') return identityErrors.usernameTaken(error);
  if (error.field === 'email') return identityErrors.emailTaken(error);
  return identityErrors.createAccountFailed(error);
}
