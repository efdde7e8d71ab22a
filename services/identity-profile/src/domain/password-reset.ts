/**
 * Password reset (spec §4 "/forgot-password" and "/auth/action", §7
 * sendResetPasswordLink and resetPassword; docs/architecture.md "Identity and
 * sessions"):
 *
 *   sendResetPasswordLink(email): the e-mail must have an account → a random
 *     code (256 bits) is stored as its sha256 with an expiry → the link
 *     `${WEB_URL}/auth/action?mode=resetPassword&oobCode=<code>&apiKey=<key>`
 *     is e-mailed over SMTP.
 *   resetPassword(actionCode, password): claim the code (unused, unexpired;
 *     one conditional UPDATE) → set the password in Keycloak (a refusal
 *     releases the claim) → retire the user's other codes → end all the
 *     user's Keycloak sessions → clear any brute-force lock-out.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  forgotPasswordSchema,
  resetPasswordSchema,
  firstErrorByField,
  normalizeEmail,
} from '@raly/contracts/validation';
import type { Logger } from '@raly/service-kit/logger';
import type { KeycloakUsers } from '../data-access/keycloak-users';
import { escapeHtml, type Mail, type Mailer } from '@raly/service-kit/mail';
import type { ResetCodeRepository } from '../data-access/reset-codes';
import type { UserRepository } from '../data-access/user-repository';
import { identityErrors } from './errors';

export interface PasswordResetSettings {
  /** The web app's origin, e.g. `http://localhost:5173`. */
  webUrl: string;
  /** The public key the link carries as `apiKey`. */
  apiKey: string;
  /** How long a code stays usable, in milliseconds. */
  codeTtlMs: number;
}

export interface PasswordResetDependencies {
  users: Pick<UserRepository, 'findIdByEmail'>;
  resetCodes: ResetCodeRepository;
  keycloak: Pick<KeycloakUsers, 'setPassword' | 'endAllSessions' | 'clearLoginFailures'>;
  mailer: Mailer;
  settings: PasswordResetSettings;
  logger: Logger;
}

/** The stored form of a code: sha256, hex. */
export const hashResetCode = (code: string): string =>
  createHash('sha256').update(code).digest('hex');

/**
 * sendResetPasswordLink (spec §7): e-mails a single-use, expiring reset link.
 * @param input `{ email }`, unparsed
 * @returns true once the mail is handed to the SMTP server
 * @throws AppError invalid-argument (bad e-mail), not-found 'There is no account associated with this email',
 *   internal 'There was a problem with your request.' (mail not sent)
 */
export async function sendResetPasswordLink(
  dependencies: PasswordResetDependencies,
  input: unknown,
): Promise<true> {
  const email = normalizeEmail(forgotPasswordSchema.parse(input).email);
  const userId = await dependencies.users.findIdByEmail(email);
  if (!userId) throw identityErrors.emailUnknown();
  const code = randomBytes(32).toString('base64url');
  await dependencies.resetCodes.issue({
    codeHash: hashResetCode(code),
    userId,
    expiresAt: new Date(Date.now() + dependencies.settings.codeTtlMs),
  });
  try {
    await dependencies.mailer.send(
      resetMail(email, resetLink(dependencies.settings, code), dependencies.settings.codeTtlMs),
    );
  } catch (error) {
    throw identityErrors.resetMailFailed(error);
  }
  return true;
}

/**
 * resetPassword (spec §7): "code verified, then new password confirmed";
 * afterwards the old password no longer signs in and every session of the
 * user has ended.
 * @param input `{ actionCode, password }`, unparsed
 * @returns `{ userId }` of the user whose password was changed (the BFF
 *   then refuses the ended sessions' access tokens, docs/api.md "Ending sessions")
 * @throws AppError invalid-argument 'There was a problem with your request.' on any failure (spec §8)
 */
export async function resetPassword(
  dependencies: PasswordResetDependencies,
  input: unknown,
): Promise<{ userId: string }> {
  const parsed = resetPasswordSchema.safeParse(input);
  if (!parsed.success)
    throw identityErrors.resetFailed(parsed.error, firstErrorByField(parsed.error));
  const { actionCode, password } = parsed.data;
  const codeHash = hashResetCode(actionCode);
  const now = new Date();
  const userId = await dependencies.resetCodes.claim(codeHash, now);
  if (!userId) throw identityErrors.resetFailed(new Error('reset code unknown, used or expired'));
  try {
    await dependencies.keycloak.setPassword(userId, password);
  } catch (error) {
    await dependencies.resetCodes.release(codeHash);
    throw identityErrors.resetFailed(error);
  }
  await dependencies.resetCodes.retireAllOf(userId, now);
  try {
    await dependencies.keycloak.endAllSessions(userId);
  } catch (error) {
    // The password is changed, but sessions that should have ended live on: say so.
    dependencies.logger.error({ err: error, userId }, 'password reset: ending the sessions failed');
    throw identityErrors.resetFailed(error);
  }
  await dependencies.keycloak.clearLoginFailures(userId).catch((error: unknown) => {
    dependencies.logger.warn(
      { err: error, userId },
      'password reset: clearing login failures failed',
    );
  });
  return { userId };
}

/** `${webUrl}/auth/action?mode=resetPassword&oobCode=…&apiKey=…` (spec §2 `/auth/action`). */
export function resetLink(
  settings: Pick<PasswordResetSettings, 'webUrl' | 'apiKey'>,
  code: string,
): string {
  const url = new URL('/auth/action', settings.webUrl);
  url.search = new URLSearchParams({
    mode: 'resetPassword',
    oobCode: code,
    apiKey: settings.apiKey,
  }).toString();
  return url.toString();
}

function resetMail(to: string, link: string, ttlMs: number): Mail {
  const minutes = Math.round(ttlMs / 60_000);
  const href = escapeHtml(link);
  return {
    to,
    subject: 'Reset your Raly password',
    text: [
      'Hello,',
      '',
      'Follow this link to choose a new password for your Raly account:',
      '',
      link,
      '',
      `The link works once and expires in ${minutes} minutes.`,
      "If you didn't ask to reset your password, you can ignore this e-mail.",
      '',
    ].join('\n'),
    html: [
      '<p>Hello,</p>',
      '<p>Follow this link to choose a new password for your Raly account:</p>',
      `<p><a href="${href}">Reset your password</a></p>`,
      `<p>The link works once and expires in ${minutes} minutes.<br>`,
      "If you didn't ask to reset your password, you can ignore this e-mail.</p>",
    ].join('\n'),
  };
}
