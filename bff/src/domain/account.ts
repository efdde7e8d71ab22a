/**
 * The account form's save (PATCH /api/me, spec §4 "Flows", §5): an e-mail
 * change needs the current password first (the Verify Password dialog), so
 * the body must carry `currentPassword` whenever `email` differs from the
 * user's e-mail; the BFF checks it with Keycloak before identity-profile
 * changes anything. `currentPassword` is never forwarded.
 */
import { messages } from '@raly/contracts/messages';
import type { AuthenticatedUser } from '../auth/keycloak';
import { failures } from '../errors/failures';
import type { Me } from '@raly/contracts/bff-api';
import { findMyUser, updateMe } from './me';
import { assertCurrentPassword, type PasswordDependencies } from './password';

/**
 * @param body identity's `PATCH /users/me` fields plus `currentPassword` (required when the e-mail changes)
 * @returns the user and brand after the change
 * @throws AppError invalid-argument 'Please enter a password.' (e-mail change without it);
 *   unauthenticated 'Incorrect password'; otherwise as identity answered
 */
export async function updateAccount(
  dependencies: PasswordDependencies,
  user: AuthenticatedUser,
  body: unknown,
): Promise<Me> {
  const { currentPassword, ...changes } = (body && typeof body === 'object' ? body : {}) as Record<
    string,
    unknown
  >;
  if (
    typeof changes.email === 'string' &&
    (await changesEmail(dependencies, user, changes.email))
  ) {
    if (typeof currentPassword !== 'string' || !currentPassword) {
      throw failures.invalidArgument(messages.verifyPasswordRequired, {
        currentPassword: messages.verifyPasswordRequired,
      });
    }
    await assertCurrentPassword(dependencies, user, currentPassword);
  }
  return updateMe(dependencies, user, changes);
}

async function changesEmail(
  dependencies: PasswordDependencies,
  user: AuthenticatedUser,
  email: string,
): Promise<boolean> {
  const current = (await findMyUser(dependencies, user))?.email ?? user.email;
  return email.trim().toLowerCase() !== current?.toLowerCase();
}
