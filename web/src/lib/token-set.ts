/**
 * The pure rules for keeping the token set the BFF answers on login and
 * registration (`@raly/contracts/bff-api` `TokenSet`) in browser storage.
 */
import type { TokenSet } from '@raly/contracts/bff-api';

/**
 * Checks a parsed value's shape by hand (not zod: this runs on the first
 * page, where zod's core would add ~25 kB gzip).
 * @returns the five fields of a token set (nothing else), or null when a field is missing or of the wrong type
 */
export function asTokenSet(value: unknown): TokenSet | null {
  if (!value || typeof value !== 'object') return null;
  const { accessToken, refreshToken, idToken, expiresIn, refreshExpiresIn } = value as Record<
    string,
    unknown
  >;
  const nonEmpty = (text: unknown): text is string => typeof text === 'string' && text.length > 0;
  if (!nonEmpty(accessToken) || !nonEmpty(refreshToken) || !nonEmpty(idToken)) return null;
  if (typeof expiresIn !== 'number' || typeof refreshExpiresIn !== 'number') return null;
  return { accessToken, refreshToken, idToken, expiresIn, refreshExpiresIn };
}

/** The one localStorage key (origin-scoped) that holds the signed-in user's token set. */
export const SESSION_STORAGE_KEY = 'raly.session';

/**
 * Reads the `exp` claim of a JWT without verifying it (the browser never
 * verifies tokens; Keycloak, the BFF and the services do).
 * @returns expiry in seconds since the epoch, or null when unreadable
 */
export function tokenExpirySeconds(jwt: string): number | null {
  const exp = decodeJwtPayload(jwt)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/**
 * @returns the claims of a JWT (unverified), or null when it is not a JWT
 */
export function decodeJwtPayload(jwt: string): Record<string, unknown> | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * @param raw the stored string (or null when nothing is stored)
 * @param nowSeconds the current time in seconds since the epoch
 * @returns the stored token set when it parses and its refresh token has not
 *   expired (a refresh token without `exp` counts as usable, e.g. offline
 *   tokens); null otherwise
 */
export function readUsableTokenSet(raw: string | null, nowSeconds: number): TokenSet | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  const tokens = asTokenSet(value);
  if (!tokens) return null;
  const refreshExpiry = tokenExpirySeconds(tokens.refreshToken);
  if (refreshExpiry !== null && refreshExpiry <= nowSeconds) return null;
  return tokens;
}
