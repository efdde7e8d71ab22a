/**
 * Unsubscribe tokens of the e-mails (RFC 8058 one-click): the person and the
 * e-mail category, signed with HMAC-SHA-256 under
 * NOTIFICATIONS_UNSUBSCRIBE_SECRET, so the link works without signing in and
 * cannot be forged for another person. `<payload>.<signature>`, both
 * base64url; the payload is `{"p": personId, "c": category}`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { messages } from '@raly/contracts/messages';
import {
  EMAIL_CATEGORIES as emailCategories,
  type EmailCategory,
  type UnsubscribeRecord,
} from '@raly/contracts/notifications';
import { AppError } from '@raly/service-kit/errors';
import type { NotificationsDependencies } from './dependencies';

export type { EmailCategory };

const signatureOf = (payload: string, secret: string): Buffer =>
  createHmac('sha256', secret).update(payload).digest();

/** @returns the token of (person, category) */
export function unsubscribeToken(
  personId: string,
  category: EmailCategory,
  secret: string,
): string {
  const payload = Buffer.from(JSON.stringify({ p: personId, c: category })).toString('base64url');
  return `${payload}.${signatureOf(payload, secret).toString('base64url')}`;
}

/**
 * Checks a token's signature.
 * @returns the person and category it names, or null for a malformed or forged token
 */
export function readUnsubscribeToken(
  token: string,
  secret: string,
): { personId: string; category: EmailCategory } | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = signatureOf(payload, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { p, c } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      p?: unknown;
      c?: unknown;
    };
    if (typeof p !== 'string' || p.length === 0 || !emailCategories.includes(c as EmailCategory))
      return null;
    return { personId: p, category: c as EmailCategory };
  } catch {
    return null;
  }
}

/**
 * The header lines of an e-mail of `category` to `personId` (RFC 2369 and RFC 8058).
 * @param unsubscribeUrl the one-click URL of this person and category
 */
export const unsubscribeHeaders = (unsubscribeUrl: string): Record<string, string> => ({
  'List-Unsubscribe': `<${unsubscribeUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

/**
 * `POST /unsubscribe/:token` (RFC 8058 one-click): turns the e-mail channel of the token's
 * category off in its person's preferences (docs/product-spec.md §12.5; `GET /preferences` then
 * shows it off), no sign-in needed (the signature is the authority). Idempotent.
 * @returns the category turned off
 * @throws AppError invalid-argument messages.unsubscribeLinkInvalid for a malformed or forged token
 */
export async function unsubscribe(
  dependencies: NotificationsDependencies,
  token: string,
): Promise<UnsubscribeRecord> {
  const named = readUnsubscribeToken(token, dependencies.digests.unsubscribeSecret);
  if (!named) throw new AppError('invalid-argument', messages.unsubscribeLinkInvalid);
  // The token's e-mail category is the preferences' category of the same name, by e-mail.
  const { cancelled } = await dependencies.preferences.set(named.personId, [
    { category: named.category, channel: 'email', enabled: false },
  ]);
  dependencies.logger.info(
    { personId: named.personId, category: named.category, cancelled },
    'e-mails turned off',
  );
  return { category: named.category, unsubscribed: true };
}
