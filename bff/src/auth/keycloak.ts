/**
 * The BFF's side of access-token verification (docs/api.md "Access tokens",
 * docs/adr/0006). The product's routes: the kit's one verifier
 * (`@raly/service-kit/auth`: signature with parsed realm keys, issuer, expiry,
 * `typ` Bearer, `aud` ∋ raly-bff, `azp` raly-bff-login, docs/adr/0009) with the
 * BFF's ended-session check as its revocation hook
 * (../data-access/session-revocations.ts, docs/adr/0005); a token of any other
 * client (the staff console's included) is refused there. The staff console's
 * routes (`/api/console`, docs/console.md): keycloak-connect (bearer-only client
 * `raly-bff`) verifies the bearer token (`getGrant`), which must be issued to the
 * console client `raly-console`, and `protect('realm:<role>')` checks the staff role.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import KeycloakConnect from 'keycloak-connect';
import {
  bearerOf,
  createAccessTokenVerifier,
  requireAccessToken,
  type AccessTokenVerifier,
  type Caller,
} from '@raly/service-kit/auth';
import { AppError } from '@raly/service-kit/errors';
import type { Config } from '../config';
import type { SessionRevocations } from '../data-access/session-revocations';

export { bearerOf };

export interface Authenticator {
  /**
   * Guard of the product's protected routes: the kit's verifier; puts the {@link Caller} on
   * `req.caller` (read it with the kit's `callerOf`). Refusals: 401 (the console's tokens
   * included), or 503 when Redis cannot say whether the session ended.
   */
  requireUser: RequestHandler;
  /**
   * Verifies a raw access token.
   * @returns the caller it belongs to
   * @throws AppError `unauthenticated` when the token is missing, forged, expired, from another
   *   issuer, not an access token for the BFF issued to the sign-in client, or its session has ended;
   *   `unavailable` when Redis cannot be read
   */
  verify(accessToken: string | undefined): Promise<Caller>;
  /**
   * {@link verify}, running `read(caller)` (the caller's own data) at the same time as the
   * ended-session check; its result is handed out only for a token still in force
   * (the kit's `AccessTokenVerifier.alongside`).
   */
  alongside: AccessTokenVerifier['alongside'];
  /** Where ended sessions are recorded (logout, password reset, e-mail change). */
  revocations: SessionRevocations;
  /**
   * Guard of the staff console's routes: a bearer access token keycloak-connect accepts
   * (signature, issuer, expiry, `typ` Bearer, `aud` ∋ raly-bff) issued to the console client,
   * whose realm roles include `role` (`keycloak.protect('realm:<role>')`). Puts the
   * {@link StaffCaller} on `req.staff` (read it with {@link staffOf}).
   * Refusals: 401 `unauthenticated` (no token, a refused one, another client's), 403
   * `permission-denied` (no such role).
   */
  requireStaff(role: StaffRole): RequestHandler;
  /**
   * The console's socket handshake (docs/api.md "socket.io", namespace `/console`): the same
   * checks as {@link requireStaff} on a raw access token (keycloak-connect's `getGrant`, the console
   * client, the realm role `role`).
   * @returns the staff member and when the token expires
   * @throws AppError `unauthenticated` (no token, a refused one, another client's),
   *   `permission-denied` (no such role)
   */
  verifyStaff(accessToken: string | undefined, role: StaffRole): Promise<StaffSession>;
}

/** The realm roles of Raly's staff; raly-admin includes raly-moderator (infra/keycloak/raly-realm.json). */
export type StaffRole = 'raly-moderator' | 'raly-admin';

/** The staff member a console request runs for (from the verified console access token). */
export interface StaffCaller {
  /** Keycloak user id (`sub`). */
  userId: string;
  /** The account's e-mail address (`email`, else `preferred_username`). */
  email: string;
  /** The staff roles the token carries. */
  roles: StaffRole[];
}

/** A staff member of a console socket, with the end of its access token (`exp`, epoch ms). */
export interface StaffSession extends StaffCaller {
  expiresAtMs: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `requireStaff` on console routes. */
    staff?: StaffCaller;
  }
}

/**
 * The staff member of a `requireStaff`-guarded route.
 * @throws AppError `unauthenticated` when the guard did not run
 */
export function staffOf(request: { staff?: StaffCaller }): StaffCaller {
  if (!request.staff) throw new AppError('unauthenticated', 'Sign in to the console');
  return request.staff;
}

const staffRoles: readonly StaffRole[] = ['raly-moderator', 'raly-admin'];

/** keycloak-connect's verified access token with its claims (`content`, in its README, not its typings). */
type ConsoleToken = KeycloakConnect.Token & {
  content?: {
    azp?: string;
    sub?: string;
    exp?: number;
    email?: string;
    preferred_username?: string;
  };
};

/**
 * Builds the authenticator.
 * @param config realm, clients and both Keycloak addresses
 * @param revocations the record of ended sessions, consulted after the token checks
 */
export function createAuthenticator(
  config: Config,
  revocations: SessionRevocations,
): Authenticator {
  const verifyToken: AccessTokenVerifier = createAccessTokenVerifier(
    {
      url: config.KEYCLOAK_URL,
      publicUrl: config.KEYCLOAK_PUBLIC_URL,
      realm: config.KEYCLOAK_REALM,
      audience: config.KEYCLOAK_BFF_CLIENT_ID,
      authorizedParty: config.KEYCLOAK_LOGIN_CLIENT_ID,
    },
    { isRevoked: (caller) => revocations.isRevoked(caller) },
  );

  const keycloak = new KeycloakConnect({}, {
    realm: config.KEYCLOAK_REALM,
    'auth-server-url': config.KEYCLOAK_PUBLIC_URL,
    resource: config.KEYCLOAK_BFF_CLIENT_ID,
    'bearer-only': true,
    'verify-token-audience': true,
    'ssl-required': 'external',
    'confidential-port': 0,
  } as unknown as KeycloakConnect.KeycloakConfig);
  // A refusal by a role guard gets our error body, not the adapter's plain-text 403.
  (keycloak as unknown as { accessDenied: RequestHandler }).accessDenied = (_req, _res, next) =>
    next(new AppError('permission-denied', 'Permission denied'));

  /**
   * keycloak-connect's grant of an `Authorization` header's bearer token (`getGrant`: signature,
   * issuer, expiry, `typ`, audience), when it is a console access token, with its staff member.
   * @throws AppError `unauthenticated` for no token, a refused one, or another client's
   */
  const consoleGrantOf = async (authorization: string | undefined) => {
    if (!bearerOf(authorization)) throw new AppError('unauthenticated', 'Sign in to the console');
    let grant: KeycloakConnect.Grant;
    try {
      // getGrant reads the bearer token from the request's headers only.
      grant = await keycloak.getGrant(
        { headers: { authorization } } as unknown as Request,
        {} as unknown as Response,
      );
    } catch {
      throw new AppError('unauthenticated', 'The access token is not valid');
    }
    const token = grant.access_token as ConsoleToken | undefined;
    const content = token?.content;
    if (!token || !content?.sub || content.azp !== config.KEYCLOAK_CONSOLE_CLIENT_ID)
      throw new AppError('unauthenticated', 'Not an access token of the console');
    const staff: StaffCaller = {
      userId: content.sub,
      email: content.email ?? content.preferred_username ?? '',
      roles: staffRoles.filter((role) => token.hasRealmRole(role)),
    };
    return { grant, token, expiresAtMs: (content.exp ?? 0) * 1000, staff };
  };

  /**
   * The console grant of the request as `req.kauth.grant` (where `protect()` reads it) and the
   * staff member as `req.staff`.
   */
  const consoleGrant: RequestHandler = async (request, _response, next) => {
    try {
      const { grant, staff } = await consoleGrantOf(request.headers.authorization);
      (request as unknown as { kauth: { grant: KeycloakConnect.Grant } }).kauth = { grant };
      request.staff = staff;
      next();
    } catch (error) {
      next(error);
    }
  };

  return {
    requireUser: requireAccessToken(verifyToken),
    verify: verifyToken,
    alongside: verifyToken.alongside,
    revocations,
    requireStaff: (role) => Router().use(consoleGrant, keycloak.protect(`realm:${role}`)),
    async verifyStaff(accessToken, role) {
      const { token, expiresAtMs, staff } = await consoleGrantOf(
        accessToken === undefined ? undefined : `Bearer ${accessToken}`,
      );
      // What `protect('realm:<role>')` checks on a route.
      if (!token.hasRealmRole(role)) throw new AppError('permission-denied', 'Permission denied');
      return { ...staff, expiresAtMs };
    },
  };
}
