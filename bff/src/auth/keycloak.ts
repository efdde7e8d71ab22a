/**
 * keycloak-connect in bearer-only mode (client `raly-bff`): the guard of the
 * protected `/api` routes and the verifier of socket.io handshake tokens.
 * Tokens are checked for signature (realm JWKS), issuer
 * (`KEYCLOAK_PUBLIC_URL/realms/raly`), type `Bearer` and expiry.
 */
import type { Request, RequestHandler, Response } from 'express';
import KeycloakConnect from 'keycloak-connect';
import { backChannelRealmUrlOf, type Config } from '../config';
import { failures } from '../errors/failures';

/** Who a verified access token belongs to. */
export interface AuthenticatedUser {
  /** Keycloak user id (`sub`): the user id across Raly. */
  id: string;
  /** The raw access token, forwarded unchanged to services. */
  accessToken: string;
  /** Expiry of the token, in epoch milliseconds. */
  expiresAtMs: number;
  /** The token's `email` claim (the login), when present; the user record's e-mail is the newer truth. */
  email?: string;
}

export interface Authenticator {
  /** Rejects the request with 401 unless it carries a valid bearer token; sets `res.locals.user`. */
  requireUser: RequestHandler;
  /**
   * Verifies a raw access token.
   * @returns the user it belongs to
   * @throws AppError `unauthenticated` when the token is missing, forged, expired or from another issuer
   */
  verify(accessToken: string | undefined): Promise<AuthenticatedUser>;
}

type KeycloakGrant = {
  access_token?: { token: string; content: { sub?: string; exp?: number; email?: string } };
};

/**
 * Builds the authenticator on keycloak-connect.
 * @param config realm, client and both Keycloak addresses
 */
export function createAuthenticator(config: Config): Authenticator {
  const keycloak = new KeycloakConnect({}, {
    realm: config.KEYCLOAK_REALM,
    // The issuer tokens carry is the public address; keycloak-connect checks
    // `iss === <auth-server-url>/realms/<realm>`, so it must be that one.
    'auth-server-url': config.KEYCLOAK_PUBLIC_URL,
    resource: config.KEYCLOAK_BFF_CLIENT_ID,
    'bearer-only': true,
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
  // Bearer-only: never redirect, answer with our one error shape.
  keycloak.accessDenied = (_request: Request, response: Response) => {
    const error = failures.unauthenticated();
    response.status(error.httpStatus).json({ error: { code: error.code, message: error.message } });
  };

  const toUser = (grant: KeycloakGrant): AuthenticatedUser => {
    const token = grant.access_token;
    if (!token?.content.sub) throw failures.unauthenticated(new Error('token without sub'));
    return {
      id: token.content.sub,
      accessToken: token.token,
      expiresAtMs: (token.content.exp ?? 0) * 1000,
      ...(token.content.email ? { email: token.content.email } : {}),
    };
  };

  const verify = async (accessToken: string | undefined): Promise<AuthenticatedUser> => {
    if (!accessToken) throw failures.unauthenticated(new Error('no token'));
    try {
      return toUser(await grantManager.createGrant(JSON.stringify({ access_token: accessToken })));
    } catch (error) {
      throw failures.unauthenticated(error);
    }
  };

  // keycloak-connect's own `middleware()` also mounts browser-flow routes
  // (login callback, /logout redirect, k_logout); a bearer-only API needs
  // only the grant from the Authorization header, which getGrant reads.
  const attachGrant: RequestHandler = (request, response, next) => {
    (request as Request & { kauth?: { grant?: unknown } }).kauth = {};
    keycloak
      .getGrant(request, response)
      .then((grant) => {
        (request as Request & { kauth: { grant?: unknown } }).kauth.grant = grant;
        response.locals.user = toUser(grant as unknown as KeycloakGrant);
      })
      .catch(() => undefined)
      .finally(() => next());
  };
  const protect = keycloak.protect();

  const requireUser: RequestHandler = (request, response, next) => {
    attachGrant(request, response, () => protect(request, response, next));
  };

  return { requireUser, verify };
}

/** The user `requireUser` attached, if any. */
export const userOf = (response: Response): AuthenticatedUser | undefined =>
  response.locals.user as AuthenticatedUser | undefined;
