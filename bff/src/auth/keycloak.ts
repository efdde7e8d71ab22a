/**
 * keycloak-connect in bearer-only mode (client `raly-bff`): the guard of the
 * protected `/api` routes and the verifier of socket.io handshake tokens.
 * An access token passes when (docs/api.md "Access tokens"):
 *
 * - keycloak-connect accepts it offline: signature (realm JWKS), issuer
 *   (`KEYCLOAK_PUBLIC_URL/realms/raly`), expiry, type `Bearer` (not an ID or
 *   refresh token) and audience (`aud` contains `KEYCLOAK_BFF_CLIENT_ID`,
 *   through its `verify-token-audience`);
 * - it was issued to the web client (`azp` = `KEYCLOAK_WEB_CLIENT_ID`), not
 *   to another client such as `raly-identity`'s service account;
 * - its session has not ended (logout, password reset, e-mail change): the
 *   session revocations in Redis (../data-access/session-revocations.ts).
 */
import type { Request, RequestHandler, Response } from 'express';
import KeycloakConnect from 'keycloak-connect';
import { backChannelRealmUrlOf, type Config } from '../config';
import type { SessionRevocations } from '../data-access/session-revocations';
import { failures } from '../errors/failures';

/** Who a verified access token belongs to. */
export interface AuthenticatedUser {
  /** Keycloak user id (`sub`): the user id across Raly. */
  id: string;
  /** The raw access token, forwarded unchanged to services. */
  accessToken: string;
  /** Expiry of the token, in epoch milliseconds. */
  expiresAtMs: number;
  /** Issue time of the token (`iat`), in epoch seconds. */
  issuedAtSec: number;
  /** The Keycloak session (`sid`) the token belongs to, when it names one. */
  sessionId?: string;
  /** The token's `email` claim (the login), when present; the user record's e-mail is the newer truth. */
  email?: string;
}

export interface Authenticator {
  /** Rejects the request with 401 unless it carries a valid bearer token; sets `res.locals.user`. */
  requireUser: RequestHandler;
  /**
   * Verifies a raw access token.
   * @returns the user it belongs to
   * @throws AppError `unauthenticated` when the token is missing, forged, expired, from another
   *   issuer, not an access token for the BFF issued to the web client, or its session has ended
   */
  verify(accessToken: string | undefined): Promise<AuthenticatedUser>;
  /** Where ended sessions are recorded (logout, password reset, e-mail change). */
  revocations: SessionRevocations;
}

type TokenContent = {
  sub?: string;
  exp?: number;
  iat?: number;
  sid?: string;
  azp?: string;
  email?: string;
};
type KeycloakGrant = { access_token?: { token: string; content: TokenContent } };

/** `Authorization: Bearer <token>` → the token. */
export const bearerOf = (header: string | undefined): string | undefined =>
  /^Bearer (.+)$/i.exec(header ?? '')?.[1];

/**
 * Builds the authenticator on keycloak-connect.
 * @param config realm, clients and both Keycloak addresses
 * @param revocations the record of ended sessions, consulted after the offline checks
 */
export function createAuthenticator(
  config: Config,
  revocations: SessionRevocations,
): Authenticator {
  const keycloak = new KeycloakConnect({}, {
    realm: config.KEYCLOAK_REALM,
    // The issuer tokens carry is the public address; keycloak-connect checks
    // `iss === <auth-server-url>/realms/<realm>`, so it must be that one.
    'auth-server-url': config.KEYCLOAK_PUBLIC_URL,
    resource: config.KEYCLOAK_BFF_CLIENT_ID,
    'bearer-only': true,
    // `aud` must contain `resource` (the realm's raly-web audience mapper adds it).
    'verify-token-audience': true,
    'ssl-required': 'external',
    'confidential-port': 0,
  } as unknown as KeycloakConnect.KeycloakConfig);
  // ...but the keys are fetched over the back channel, which servers can
  // always reach (Keycloak serves the same JWKS on either host name).
  const grantManager = keycloak.grantManager as unknown as {
    rotation: { realmUrl: string };
    createGrant(raw: string): Promise<KeycloakGrant>;
  };
  grantManager.rotation.realmUrl = backChannelRealmUrlOf(config);

  const toUser = (grant: KeycloakGrant): AuthenticatedUser => {
    const token = grant.access_token;
    if (!token?.content.sub) throw new Error('token without sub');
    if (token.content.azp !== config.KEYCLOAK_WEB_CLIENT_ID)
      throw new Error(`token issued to ${token.content.azp}, not ${config.KEYCLOAK_WEB_CLIENT_ID}`);
    return {
      id: token.content.sub,
      accessToken: token.token,
      expiresAtMs: (token.content.exp ?? 0) * 1000,
      issuedAtSec: token.content.iat ?? 0,
      ...(token.content.sid ? { sessionId: token.content.sid } : {}),
      ...(token.content.email ? { email: token.content.email } : {}),
    };
  };

  const verify = async (accessToken: string | undefined): Promise<AuthenticatedUser> => {
    if (!accessToken) throw failures.unauthenticated(new Error('no token'));
    let user: AuthenticatedUser;
    try {
      user = toUser(await grantManager.createGrant(JSON.stringify({ access_token: accessToken })));
    } catch (error) {
      throw failures.unauthenticated(error);
    }
    // Fail closed: when Redis cannot answer, no token passes (503).
    const revoked = await revocations
      .isRevoked({ userId: user.id, sessionId: user.sessionId, issuedAtSec: user.issuedAtSec })
      .catch((error: unknown) => {
        throw failures.upstreamUnavailable('session revocations (Redis)', error);
      });
    if (revoked) throw failures.unauthenticated(new Error('the session of the token has ended'));
    return user;
  };

  // keycloak-connect's own `middleware()`/`protect()` also mount browser-flow
  // routes and session stores; a bearer-only API needs only the grant from
  // the Authorization header, so both paths share `verify`.
  const requireUser: RequestHandler = (request: Request, response: Response, next) => {
    verify(bearerOf(request.headers.authorization))
      .then((user) => {
        response.locals.user = user;
        next();
      })
      .catch(next);
  };

  return { requireUser, verify, revocations };
}

/** The user `requireUser` attached, if any. */
export const userOf = (response: Response): AuthenticatedUser | undefined =>
  response.locals.user as AuthenticatedUser | undefined;
