/**
 * The account form's save (PATCH /api/me, spec §4 "Flows", §5): an e-mail
 * change needs the current password first (the Verify Password dialog), so
 * the body must carry `currentPassword` whenever `email` differs from the
 * user's e-mail; the BFF checks it with Keycloak before identity-profile
 * changes anything. `currentPassword` is never forwarded.
 *
 * A changed e-mail ends the user's other sessions (docs/api.md "Ending
 * sessions"): identity-profile ends them at Keycloak (no refresh), and the
 * BFF records it so their access tokens and open sockets stop at once, while
 * the session that made the change keeps working.
 */
import { messages } from '@raly/contracts/messages';
import type { Caller } from '@raly/service-kit/auth';
import type { SessionRevocations } from '../data-access/session-revocations';
import { bffErrors } from './errors';
import type { Me } from '@raly/contracts/bff-api';
import { findMyUser, updateMe } from './me';
import { assertCurrentPassword, type PasswordDependencies } from './password';

export interface AccountDependencies extends PasswordDependencies {
  revocations: SessionRevocations;
  /**
   * Takes one password check from the user's budget (shared with
   * POST /api/auth/verify-password).
   * @throws AppError resource-exhausted when the budget is spent
   */
  chargePasswordCheck: () => Promise<void>;
}

/**
 * @param body identity's `PATCH /users/me` fields plus `currentPassword` (required when the e-mail changes)
 * @returns the user and brand after the change
 * @throws AppError invalid-argument 'Please enter a password.' (e-mail change without it);
 *   resource-exhausted (too many password checks); unauthenticated 'Incorrect password';
 *   otherwise as identity answered
 */
export async function updateAccount(
  dependencies: AccountDependencies,
  caller: Caller,
  body: unknown,
): Promise<Me> {
  const { currentPassword, ...changes } = (body && typeof body === 'object' ? body : {}) as Record<
    string,
    unknown
  >;
  const changesEmail =
    typeof changes.email === 'string' &&
    !sameEmail(changes.email, await currentEmailOf(dependencies, caller));
  if (changesEmail) {
    if (typeof currentPassword !== 'string' || !currentPassword) {
      throw bffErrors.invalidArgument(messages.verifyPasswordRequired, {
        currentPassword: messages.verifyPasswordRequired,
      });
    }
    await dependencies.chargePasswordCheck();
    await assertCurrentPassword(dependencies, caller, currentPassword);
  }
  // Before identity ends the other sessions (as for a password reset, ./password.ts).
  const notBeforeSec = Math.floor(Date.now() / 1000);
  const updated = await updateMe(dependencies, caller, changes);
  if (changesEmail) {
    await dependencies.revocations.endUserSessions(caller.userId, {
      notBeforeSec,
      ...(caller.sessionId ? { keepSessionId: caller.sessionId } : {}),
    });
  }
  return updated;
}

async function currentEmailOf(
  dependencies: PasswordDependencies,
  caller: Caller,
): Promise<string | undefined> {
  return (await findMyUser(dependencies, caller))?.email ?? caller.email;
}

const sameEmail = (email: string, other: string | undefined): boolean =>
  email.trim().toLowerCase() === other?.trim().toLowerCase();
