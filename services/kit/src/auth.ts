/**
 * Access-token verification for services: the caller's Keycloak access
 * token (forwarded unchanged by the BFF) is checked against the realm's
 * JWKS, fetched from the back-channel URL, with the issuer Keycloak puts in
 * every token (the public URL; see docs/conventions.md "Keycloak host names"),
 * and must be an access token the web client got for the BFF: `typ`
 * `Bearer` (not an ID or refresh token), `aud` containing the BFF's client
 * and `azp` the web client (not another client's service account) — the
 * same rule as the BFF (docs/api.md "Access tokens").
 */
import type { RequestHandler } from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { z } from 'zod';
import { AppError } from './errors';

/**
 * The config lines of a service that verifies access tokens: the audience
 * and authorised party tokens must carry (same names and defaults as the
 * BFF's, docs/conventions.md). Spread into the service's `z.object({...})`.
 */
export const accessTokenConfigShape = {
  /** The client every accepted access token is meant for (`aud` contains it). */
  KEYCLOAK_BFF_CLIENT_ID: z.string().min(1).default('raly-bff'),
  /** The client every accepted access token was issued to (`azp`). */
  KEYCLOAK_WEB_CLIENT_ID: z.string().min(1).default('raly-web'),
};

export interface KeycloakSettings {
  /** Back-channel base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Base URL in the tokens' issuer, e.g. `http://localhost:8080`. */
  publicUrl: string;
  realm: string;
  /** Required in `aud`, e.g. `raly-bff` (KEYCLOAK_BFF_CLIENT_ID). */
  audience: string;
  /** Required `azp`, e.g. `raly-web` (KEYCLOAK_WEB_CLIENT_ID). */
  authorizedParty: string;
}

/** Who is calling, taken from a verified access token. */
export interface Caller {
  /** The Keycloak user id (`sub`); also the user record's id. */
  userId: string;
  email: string | undefined;
  /** The Keycloak session the token belongs to (`sid`), when it names one. */
  sessionId: string | undefined;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by {@link requireAccessToken}. */
    caller?: Caller;
  }
}

/** A verifier of bearer access tokens for one realm. */
export type AccessTokenVerifier = (token: string) => Promise<Caller>;

/**
 * Creates a verifier (caches the realm's keys; refetches on an unknown `kid`).
 * @throws (from the verifier) AppError `unauthenticated` for a bad, expired or foreign token,
 *   an ID or refresh token, or a token issued to another client or for another audience
 */
export function createAccessTokenVerifier(settings: KeycloakSettings): AccessTokenVerifier {
  const jwks = createRemoteJWKSet(
    new URL(`${settings.url}/realms/${settings.realm}/protocol/openid-connect/certs`),
  );
  // The public issuer is the one tokens carry (docs/conventions.md); the
  // back-channel one is also accepted for a Keycloak started without a fixed
  // --hostname, which names itself after the host it was asked on. Same keys.
  const issuer = [...new Set([settings.publicUrl, settings.url])].map(
    (base) => `${base}/realms/${settings.realm}`,
  );
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: settings.audience });
      if (payload.typ !== 'Bearer')
        throw new Error(`token type ${String(payload.typ)}, not Bearer`);
      if (payload.azp !== settings.authorizedParty)
        throw new Error(`token issued to ${String(payload.azp)}, not ${settings.authorizedParty}`);
      if (!payload.sub) throw new Error('token has no subject');
      return {
        userId: payload.sub,
        email: typeof payload.email === 'string' ? payload.email : undefined,
        sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
      };
    } catch (error) {
      throw new AppError('unauthenticated', 'Unauthenticated', { cause: error });
    }
  };
}

/**
 * Express middleware: requires `Authorization: Bearer <access token>` and
 * puts `{ userId, email }` on `req.caller`; otherwise answers 401.
 */
export function requireAccessToken(verify: AccessTokenVerifier): RequestHandler {
  return async (req, _res, next) => {
    const match = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    if (!match?.[1]) {
      next(new AppError('unauthenticated', 'Unauthenticated'));
      return;
    }
    try {
      req.caller = await verify(match[1]);
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The caller a {@link requireAccessToken}-protected route runs for.
 * @throws AppError `unauthenticated` when the middleware did not run
 */
export function callerOf(req: { caller?: Caller }): Caller {
  if (!req.caller) throw new AppError('unauthenticated', 'Unauthenticated');
  return req.caller;
}
