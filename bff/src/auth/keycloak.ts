/**
 * The BFF's side of access-token verification (docs/api.md "Access tokens",
 * docs/adr/0006): the kit's one verifier (`@raly/service-kit/auth`: signature
 * with parsed realm keys, issuer, expiry, `typ` Bearer, `aud` ∋ raly-bff,
 * `azp` raly-bff-login, docs/adr/0009) with the BFF's ended-session check as its revocation hook
 * (../data-access/session-revocations.ts, docs/adr/0005). `/api` routes are
 * guarded by keycloak-connect (bearer-only client `raly-bff`): its
 * `protect()` runs on the grant the kit's verifier accepted, so role guards
 * (`protect('realm:…')`) work on it, and no token is verified twice.
 */
import { Router, type RequestHandler } from 'express';
import KeycloakConnect from 'keycloak-connect';
// @ts-expect-error -- keycloak-connect ships no types for its internal modules (CommonJS, module.exports = Token).
import KeycloakTokenModule from 'keycloak-connect/middleware/auth-utils/token.js';
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
   * Guard of protected routes: the kit's verifier, then keycloak-connect's
   * `protect()`; puts the {@link Caller} on `req.caller` (read it with the
   * kit's `callerOf`). Refusals: 401, or 503 when Redis cannot say whether the session ended.
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
}

/**
 * keycloak-connect's Token (middleware/auth-utils/token.js): parses a raw token, no verification.
 * A static import, so that the image's bundle (esbuild) inlines it: the runtime image has no
 * node_modules.
 */
type TokenConstructor = new (token: string, clientId: string) => KeycloakConnect.Token;
const KeycloakToken = KeycloakTokenModule as TokenConstructor;

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

  // One parsed keycloak-connect Token per verified caller: the verifier hands out the same
  // (frozen) Caller for a cached token, so the token is not parsed again on every request.
  const parsedTokens = new WeakMap<Caller, KeycloakConnect.Token>();
  /** Hands the verified token to keycloak-connect as `req.kauth.grant`, as its own middleware would. */
  const grantOfCaller: RequestHandler = (request, _response, next) => {
    const caller = request.caller!;
    let token = parsedTokens.get(caller);
    if (!token) {
      token = new KeycloakToken(caller.accessToken, config.KEYCLOAK_BFF_CLIENT_ID);
      parsedTokens.set(caller, token);
    }
    (request as unknown as { kauth: { grant: KeycloakConnect.GrantProperties } }).kauth = {
      grant: { access_token: token },
    };
    next();
  };

  return {
    requireUser: Router().use(requireAccessToken(verifyToken), grantOfCaller, keycloak.protect()),
    verify: verifyToken,
    alongside: verifyToken.alongside,
    revocations,
  };
}
