/**
 * Signing in, staying signed in and signing out (spec §4, §7 login/logout;
 * docs/adr/0009): Keycloak checks the password; every refusal reads
 * 'Incorrect login' (spec §8). The token set is renewed through the BFF,
 * because only the BFF's confidential sign-in client can refresh it.
 */
import type { Logger } from '@raly/service-kit/logger';
import { AppError } from '@raly/service-kit/errors';
import { messages } from '@raly/contracts/messages';
import { decodeJwt } from 'jose';
import type { Caller } from '@raly/service-kit/auth';
import type { SessionRevocations, TokenSession } from '../data-access/session-revocations';
import { bffErrors } from './errors';
import { findBrand, findMyUser, type MeDependencies } from './me';
import type { IdentityClient } from '../data-access/identity-client';
import type { TokenSet } from '@raly/contracts/bff-api';
import type { KeycloakTokens } from '../data-access/keycloak-tokens';

export interface SessionDependencies extends MeDependencies {
  keycloak: KeycloakTokens;
  identity: IdentityClient;
  logger: Logger;
}

/**
 * Signs a user in and records the sign-in in the user's record (`lastLogin`,
 * whose snapshot event reaches open tabs) without waiting for it: the token
 * set is answered as soon as Keycloak gave it; a failure to record it is
 * logged and does not fail the sign-in.
 * @param credentials the request body; anything but two strings is a failed login
 * @returns the token set of the new session
 * @throws AppError `unauthenticated` 'Incorrect login' on any refusal
 */
export async function login(
  { keycloak, identity, logger, records, brands }: SessionDependencies,
  credentials: unknown,
): Promise<TokenSet> {
  const { email, password } = (credentials ?? {}) as { email?: unknown; password?: unknown };
  if (typeof email !== 'string' || typeof password !== 'string' || !email || !password) {
    throw bffErrors.incorrectLogin(new Error('login without e-mail or password'));
  }
  let tokens: TokenSet | null;
  try {
    tokens = await keycloak.passwordGrant(email, password);
  } catch (error) {
    throw bffErrors.incorrectLogin(error);
  }
  if (!tokens) throw bffErrors.incorrectLogin(new Error('Keycloak refused the credentials'));
  await refuseSuspended({ keycloak, identity, logger, records, brands }, tokens);
  // Not awaited: the answer does not depend on it, and the sign-in would otherwise
  // wait for identity-profile's write; the new lastLogin reaches the tabs as its snapshot event.
  void identity.recordLogin(tokens.accessToken).catch((error: unknown) => {
    // A user without a record yet (404) has nothing to record.
    logger.warn({ err: error }, 'recording the sign-in failed');
  });
  return tokens;
}

/**
 * Refuses the sign-in of a suspended creator, or of a member of a suspended brand
 * (docs/console.md): the session Keycloak just opened is ended and no token leaves the BFF.
 * The user and brand are read as GET /api/me reads them (the read model, which a staff
 * decision updates at once, else their services); when neither can be read, the sign-in goes on
 * (logged), as it does not depend on identity-profile otherwise.
 * @throws AppError permission-denied 'This account is suspended.'
 */
async function refuseSuspended(dependencies: SessionDependencies, tokens: TokenSet): Promise<void> {
  const userId = decodeJwt(tokens.accessToken).sub;
  if (!userId) return;
  let suspended: boolean;
  try {
    const user = await findMyUser(dependencies, { userId, accessToken: tokens.accessToken });
    if (!user) return;
    const brand = user.brand
      ? await findBrand(dependencies, user.brand.id, tokens.accessToken)
      : null;
    suspended = user.permissions.isSuspended || brand?.permissions.isSuspended === true;
  } catch (error) {
    // Neither the read model nor the owning service could tell: sign-in does not wait on them.
    // A suspension writes the read model at once, so only a person it never saw passes here.
    dependencies.logger.warn({ err: error, userId }, 'suspension check failed at sign-in');
    return;
  }
  if (!suspended) return;
  await dependencies.keycloak.endSession(tokens.refreshToken).catch((error: unknown) => {
    dependencies.logger.warn({ err: error, userId }, 'ending a suspended sign-in failed');
  });
  throw bffErrors.accountSuspended();
}

export interface LogoutDependencies {
  keycloak: KeycloakTokens;
  revocations: SessionRevocations;
}

/**
 * Ends the session the refresh token belongs to, at Keycloak and at once
 * for its access tokens and open sockets: once Keycloak has ended it, the
 * session (`sid`) is recorded as ended (../data-access/session-revocations.ts).
 * The BFF records it itself because it is on the path of the command's
 * answer; Keycloak tells nobody (no back-channel logout to a bearer-only client).
 * @param caller the signed-in user (its session is the one recorded if the refresh token names none)
 * @param body `{ refreshToken }`
 * @throws AppError `invalid-argument` when the token is missing or Keycloak refuses it
 */
export async function logout(
  { keycloak, revocations }: LogoutDependencies,
  caller: Caller,
  body: unknown,
): Promise<true> {
  const refreshToken = refreshTokenOf(body);
  if (!(await keycloak.endSession(refreshToken))) {
    throw bffErrors.invalidArgument('Keycloak refused the refresh token');
  }
  // Keycloak has accepted the refresh token, so its claims are genuine.
  const sessionId = sessionIdOf(refreshToken) ?? caller.sessionId;
  if (sessionId) await revocations.endSession(sessionId);
  return true;
}

export interface RefreshDependencies {
  keycloak: KeycloakTokens;
  revocations: SessionRevocations;
}

/** The answer to a refresh token whose session is over (ended, expired, spent or not ours): sign in again. */
const sessionOver = (reason: string) =>
  new AppError('unauthenticated', 'Unauthenticated', { cause: new Error(reason) });

/**
 * Renews the token set of a signed-in user (POST /api/auth/refresh). A
 * session the BFF recorded as ended (docs/adr/0005: logout, password reset,
 * the other sessions at an e-mail change) is refused before Keycloak is
 * asked, judged on the refresh token's `sub`, `sid` and `iat` like an access
 * token's; Keycloak then refuses a spent, expired or foreign refresh token.
 * @param body `{ refreshToken }`
 * @returns the new token set (the refresh token given is spent: refresh-token rotation)
 * @throws AppError `invalid-argument` (400) when `refreshToken` is missing or not a JWT;
 *   `unauthenticated` (401) when the session is over; `unavailable` (503) when Redis or
 *   Keycloak cannot be reached
 */
export async function refresh(
  { keycloak, revocations }: RefreshDependencies,
  body: unknown,
): Promise<TokenSet> {
  const refreshToken = refreshTokenOf(body);
  const session = tokenSessionOf(refreshToken);
  if (!session)
    throw bffErrors.invalidArgument('refreshToken is not a refresh token', {
      refreshToken: 'refreshToken is not a refresh token',
    });
  let ended: boolean;
  try {
    ended = await revocations.isRevoked(session);
  } catch (error) {
    // Fail closed, as the access-token check does (docs/adr/0005).
    throw new AppError('unavailable', messages.genericProblem, { cause: error });
  }
  if (ended) throw sessionOver('the session was ended at the BFF');
  const tokens = await keycloak.refreshGrant(refreshToken);
  if (!tokens) throw sessionOver('Keycloak refused the refresh token');
  return tokens;
}

/**
 * @returns the body's `refreshToken`
 * @throws AppError `invalid-argument` when it is missing or not a non-empty string
 */
function refreshTokenOf(body: unknown): string {
  const { refreshToken } = (body ?? {}) as { refreshToken?: unknown };
  if (typeof refreshToken !== 'string' || !refreshToken) {
    throw bffErrors.invalidArgument('refreshToken is required', {
      refreshToken: 'refreshToken is required',
    });
  }
  return refreshToken;
}

/**
 * The claims of an (unverified) refresh token a revocation is decided on.
 * Unverified is enough here: a forged token can only make its bearer refused,
 * and Keycloak verifies the token before anything is answered.
 * @returns `sub`, `sid`, `iat`, or undefined when it is not a JWT with `sub` and `iat`
 */
function tokenSessionOf(jwt: string): TokenSession | undefined {
  try {
    const { sub, sid, iat } = decodeJwt(jwt);
    if (typeof sub !== 'string' || typeof iat !== 'number') return undefined;
    return { userId: sub, sessionId: typeof sid === 'string' ? sid : undefined, issuedAtSec: iat };
  } catch {
    return undefined;
  }
}

/** The `sid` claim of a JWT, or undefined when it has none or is not a JWT. */
function sessionIdOf(jwt: string): string | undefined {
  try {
    const { sid } = decodeJwt(jwt);
    return typeof sid === 'string' ? sid : undefined;
  } catch {
    return undefined;
  }
}
