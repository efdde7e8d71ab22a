/**
 * Passwords on a user's behalf (spec §4 "Flows", §7 sendResetPasswordLink,
 * resetPassword, validateUserCredientials): the reset link and the reset
 * itself are identity-profile's; checking the current password is a
 * password grant at Keycloak whose session is ended at once.
 */
import { verifyPasswordSchema } from '@raly/contracts/validation';
import { messages } from '@raly/contracts/messages';
import type { Caller } from '@raly/service-kit/auth';
import type { IdentityClient } from '../data-access/identity-client';
import type { KeycloakTokens } from '../data-access/keycloak-tokens';
import type { SessionRevocations } from '../data-access/session-revocations';
import { bffErrors } from './errors';
import { findMyUser, type MeDependencies } from './me';

export interface PasswordDependencies extends MeDependencies {
  keycloak: KeycloakTokens;
}

/**
 * sendResetPasswordLink (POST /api/auth/forgot-password).
 * @param body `{ email }`
 * @returns true once identity-profile mailed the link
 * @throws AppError as identity answered: 404 'There is no account associated with this email', 400
 */
export async function forgotPassword(identity: IdentityClient, body: unknown): Promise<true> {
  await identity.sendResetPasswordLink(body);
  return true;
}

/**
 * resetPassword (POST /api/auth/reset-password). identity-profile changes
 * the password and ends every Keycloak session of the user
 * (docs/architecture.md "Identity and sessions"; the visitor resetting is
 * signed out, so no session is kept); the BFF then records that every
 * session of that user begun before the command was sent has ended, so their
 * access tokens and open sockets stop at once (../data-access/session-revocations.ts). The
 * BFF records it itself because it is on the path of the command's answer.
 * @param body `{ actionCode, password }`
 * @returns true when the password was changed (and the user's sessions ended)
 * @throws AppError 400 'There was a problem with your request.' on any failure (spec §8)
 */
export async function resetPassword(
  { identity, revocations }: { identity: IdentityClient; revocations: SessionRevocations },
  body: unknown,
): Promise<true> {
  // Before the sessions end: a session begun after them (a sign-in with the new password) must pass.
  const notBeforeSec = Math.floor(Date.now() / 1000);
  const { userId } = await identity.resetPassword(body);
  await revocations.endUserSessions(userId, { notBeforeSec });
  return true;
}

/**
 * validateUserCredientials (POST /api/auth/verify-password): is `password`
 * the signed-in user's current password?
 * @param body `{ password }`
 * @returns true when Keycloak accepts it (the session that check opened is ended)
 * @throws AppError invalid-argument 'Please enter a password.' when empty;
 *   unauthenticated 'Incorrect password' when wrong
 */
export async function verifyPassword(
  dependencies: PasswordDependencies,
  caller: Caller,
  body: unknown,
): Promise<true> {
  const parsed = verifyPasswordSchema.safeParse(body ?? {});
  if (!parsed.success) {
    throw bffErrors.invalidArgument(messages.verifyPasswordRequired, {
      password: messages.verifyPasswordRequired,
    });
  }
  await assertCurrentPassword(dependencies, caller, parsed.data.password);
  return true;
}

/**
 * Checks the user's current password with a password grant for their
 * current e-mail (the record's, else the token's).
 * @throws AppError unauthenticated 'Incorrect password'
 */
export async function assertCurrentPassword(
  dependencies: PasswordDependencies,
  caller: Caller,
  password: string,
): Promise<void> {
  const email = (await findMyUser(dependencies, caller))?.email ?? caller.email;
  if (!email) throw bffErrors.incorrectPassword(new Error('no e-mail known for the user'));
  const tokens = await dependencies.keycloak.passwordGrant(email, password);
  if (!tokens) throw bffErrors.incorrectPassword(new Error('Keycloak refused the password'));
  // The check must not leave a session behind.
  await dependencies.keycloak.endSession(tokens.refreshToken);
}
