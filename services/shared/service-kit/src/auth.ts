/**
 * The one access-token verification adapter, used by the BFF and every
 * service (docs/api.md "Access tokens", docs/adr/0006, 0009): signature by
 * the realm key its `kid` names (JWKS over the back channel), issuer,
 * expiry, `typ` Bearer, the BFF's client in `aud`, the sign-in client as
 * `azp`, and the optional revocation hook. Keys are kept parsed (one OpenSSL
 * verify per check) and a verified token's {@link Caller} is cached until
 * its `exp` while its key is still the realm's; the revocation hook runs on
 * every call. An unknown `kid` refetches the JWKS at most once per
 * `jwksCooldownMs`, and a set older than `jwksMaxAgeMs` is refetched, so a
 * key Keycloak removed stops being accepted.
 */
import {
  createPublicKey,
  verify as verifySignature,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, kitFailure } from './errors';
import { timeUpstreamCall } from './metrics';

/**
 * The config lines of an app that verifies access tokens: the audience
 * and authorised party tokens must carry (docs/conventions.md). Spread into
 * the app's `z.object({...})`.
 */
export const accessTokenConfigShape = {
  /** The client every accepted access token is meant for (`aud` contains it). */
  KEYCLOAK_BFF_CLIENT_ID: z.string().min(1).default('raly-bff'),
  /**
   * The client every accepted user access token was issued to (`azp`): the BFF's confidential
   * sign-in client (docs/adr/0009), whose password and refresh grants only the BFF can make.
   */
  KEYCLOAK_LOGIN_CLIENT_ID: z.string().min(1).default('raly-bff-login'),
};

export interface KeycloakSettings {
  /** Back-channel base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Base URL in the tokens' issuer, e.g. `http://localhost:8080`. */
  publicUrl: string;
  realm: string;
  /** Required in `aud`, e.g. `raly-bff` (KEYCLOAK_BFF_CLIENT_ID). */
  audience: string;
  /**
   * Required `azp`: the client the token was issued to, e.g. `raly-bff-login`
   * (KEYCLOAK_LOGIN_CLIENT_ID); for service-to-service calls the calling
   * services' clients (./internal `createServiceCallerVerifier`).
   */
  authorizedParty: string | readonly string[];
}

/** Who is calling, taken from a verified access token. */
export interface Caller {
  /** The Keycloak user id (`sub`); also the user record's id. */
  userId: string;
  /** The token's `email` claim (the login), when present; the user record's e-mail is the newer truth. */
  email: string | undefined;
  /** The Keycloak session the token belongs to (`sid`), when it names one. */
  sessionId: string | undefined;
  /** Issue time (`iat`), in epoch seconds. */
  issuedAtSec: number;
  /** Expiry (`exp`), in epoch milliseconds. */
  expiresAtMs: number;
  /** The raw access token, for forwarding unchanged to services. */
  accessToken: string;
  /** The client the token was issued to (`azp`): the sign-in client, or the calling service's client. */
  clientId: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by {@link requireAccessToken}. */
    caller?: Caller;
  }
}

/**
 * A verifier of bearer access tokens for one realm.
 * @throws AppError `unauthenticated` (401) for any refused token; `unavailable` (503) when the revocation hook fails
 */
export type AccessTokenVerifier = ((token: string | undefined) => Promise<Caller>) & {
  /**
   * Verifies the token like the verifier itself and, once its signature and
   * claims passed, runs `read(caller)` at the same time as the revocation
   * hook (their I/O leaves together, e.g. in one Redis pipeline).
   * The read's result is handed out only when the hook did not refuse the
   * token; a refused token throws as the verifier does, whatever the read did.
   * @param read what the request needs for the verified caller (their own data only)
   * @returns the caller and what `read` resolved to
   * @throws AppError as the verifier; else what `read` threw
   */
  alongside<T>(
    token: string | undefined,
    read: (caller: Caller) => Promise<T>,
  ): Promise<{ caller: Caller; value: T }>;
};

export interface AccessTokenVerifierOptions {
  /**
   * Asked after every other check passed; `true` refuses the token (401).
   * When it throws, the token is refused with 503 (fail closed).
   */
  isRevoked?: (caller: Caller) => Promise<boolean>;
  /** Least time between two JWKS fetches caused by unknown `kid`s, in ms; default 10 000. */
  jwksCooldownMs?: number;
  /** Age after which the JWKS is fetched again before use, in ms; default 600 000. */
  jwksMaxAgeMs?: number;
  /** Timeout of one JWKS fetch, in ms; default 5000. */
  jwksTimeoutMs?: number;
  /**
   * How many verified tokens are remembered (least recently used dropped
   * first); default 5000, 0 turns the cache off. Each entry lives until its
   * token's `exp` at most.
   */
  verifiedTokensMax?: number;
}

/** JWS `alg` → node's verify algorithm and signature encoding (RFC 7518 §3). */
const algorithms: Record<string, { hash: string; dsaEncoding?: 'ieee-p1363' }> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
  ES256: { hash: 'sha256', dsaEncoding: 'ieee-p1363' },
  ES384: { hash: 'sha384', dsaEncoding: 'ieee-p1363' },
  ES512: { hash: 'sha512', dsaEncoding: 'ieee-p1363' },
};

interface RealmKey {
  key: KeyObject;
  /** The JWK's `alg`, when it names one: the token's must be the same. */
  alg: string | undefined;
}

/**
 * The realm's signing keys, parsed once per `kid`.
 * @param certsUrl the realm's JWKS URL
 */
function realmKeyCache(
  certsUrl: string,
  options: Required<Omit<AccessTokenVerifierOptions, 'isRevoked' | 'verifiedTokensMax'>>,
) {
  let keys = new Map<string, RealmKey>();
  let fetchedAt = -Infinity;
  let inFlight: Promise<void> | undefined;

  const refetch = (): Promise<void> => {
    inFlight ??= (async () => {
      try {
        const response = await timeUpstreamCall('keycloak', 'GET', () =>
          fetch(certsUrl, { signal: AbortSignal.timeout(options.jwksTimeoutMs) }),
        );
        if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
        const body = (await response.json()) as { keys?: Array<Record<string, unknown>> };
        const next = new Map<string, RealmKey>();
        for (const jwk of body.keys ?? []) {
          if (typeof jwk.kid !== 'string' || (jwk.use !== undefined && jwk.use !== 'sig')) continue;
          next.set(jwk.kid, {
            key: createPublicKey({ key: jwk as unknown as JsonWebKey, format: 'jwk' }),
            alg: typeof jwk.alg === 'string' ? jwk.alg : undefined,
          });
        }
        keys = next;
      } finally {
        // A failed fetch also waits out the cooldown: a broken Keycloak is not asked on every request.
        fetchedAt = Date.now();
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  return async (kid: string): Promise<RealmKey | undefined> => {
    const age = Date.now() - fetchedAt;
    if (age > options.jwksMaxAgeMs) await refetch().catch(() => undefined);
    else if (!keys.has(kid) && age >= options.jwksCooldownMs)
      await refetch().catch(() => undefined);
    return keys.get(kid);
  };
}

/** A token that passed every check but the revocation hook, and the key that verified it. */
interface VerifiedToken {
  caller: Caller;
  kid: string;
  key: KeyObject;
}

/**
 * The verified tokens, least recently used first (a `Map` keeps insertion
 * order; a hit moves its entry to the end).
 * @param max the most entries kept; 0 keeps none
 */
function verifiedTokenCache(max: number) {
  const entries = new Map<string, VerifiedToken>();
  return {
    /** The entry of `token` while its token has not expired, else undefined. */
    get(token: string): VerifiedToken | undefined {
      const entry = entries.get(token);
      if (!entry) return undefined;
      entries.delete(token);
      if (entry.caller.expiresAtMs <= Date.now()) return undefined;
      entries.set(token, entry);
      return entry;
    },
    set(token: string, entry: VerifiedToken): void {
      if (max <= 0) return;
      entries.delete(token);
      entries.set(token, entry);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}

const decodePart = (part: string): Record<string, unknown> => {
  const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('not a JSON object');
  return value as Record<string, unknown>;
};

/**
 * Creates the verifier of one realm.
 * @param settings realm, both Keycloak addresses, required audience and authorised party
 * @param options the revocation hook and the JWKS cache timings
 * @returns the verifier; its result is the {@link Caller}
 */
export function createAccessTokenVerifier(
  settings: KeycloakSettings,
  options: AccessTokenVerifierOptions = {},
): AccessTokenVerifier {
  const realmKey = realmKeyCache(
    `${settings.url.replace(/\/$/, '')}/realms/${settings.realm}/protocol/openid-connect/certs`,
    {
      jwksCooldownMs: options.jwksCooldownMs ?? 10_000,
      jwksMaxAgeMs: options.jwksMaxAgeMs ?? 600_000,
      jwksTimeoutMs: options.jwksTimeoutMs ?? 5000,
    },
  );
  // The public issuer is the one tokens carry (docs/conventions.md); the
  // back-channel one is also accepted for a Keycloak started without a fixed
  // --hostname, which names itself after the host it was asked on. Same keys.
  const issuers = new Set(
    [settings.publicUrl, settings.url].map(
      (base) => `${base.replace(/\/$/, '')}/realms/${settings.realm}`,
    ),
  );

  const verified = verifiedTokenCache(options.verifiedTokensMax ?? 5000);
  const authorizedParties = new Set<unknown>(
    typeof settings.authorizedParty === 'string'
      ? [settings.authorizedParty]
      : settings.authorizedParty,
  );

  const check = async (token: string): Promise<Caller> => {
    const cached = verified.get(token);
    // A key the realm no longer lists (or replaced) stops vouching for its tokens.
    if (cached && (await realmKey(cached.kid))?.key === cached.key) return cached.caller;
    const parts = token.split('.');
    if (parts.length !== 3) throw new Error('not a compact JWS');
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const header = decodePart(headerPart);
    const alg = typeof header.alg === 'string' ? header.alg : '';
    const algorithm = algorithms[alg];
    if (!algorithm) throw new Error(`algorithm ${alg} not accepted`);
    if (typeof header.kid !== 'string') throw new Error('token names no key');
    const realm = await realmKey(header.kid);
    if (!realm) throw new Error(`unknown key ${header.kid}`);
    if (realm.alg && realm.alg !== alg) throw new Error(`key ${header.kid} is not for ${alg}`);
    const signed = verifySignature(
      algorithm.hash,
      Buffer.from(`${headerPart}.${payloadPart}`),
      algorithm.dsaEncoding ? { key: realm.key, dsaEncoding: algorithm.dsaEncoding } : realm.key,
      Buffer.from(signaturePart, 'base64url'),
    );
    if (!signed) throw new Error('invalid signature');

    const claims = decodePart(payloadPart);
    const nowSec = Date.now() / 1000;
    if (typeof claims.exp !== 'number' || claims.exp <= nowSec) throw new Error('token expired');
    if (typeof claims.nbf === 'number' && claims.nbf > nowSec)
      throw new Error('token not yet valid');
    if (typeof claims.iss !== 'string' || !issuers.has(claims.iss))
      throw new Error(`issuer ${String(claims.iss)} not accepted`);
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audience.includes(settings.audience))
      throw new Error(`token is not meant for ${settings.audience}`);
    if (claims.typ !== 'Bearer') throw new Error(`token type ${String(claims.typ)}, not Bearer`);
    if (!authorizedParties.has(claims.azp))
      throw new Error(
        `token issued to ${String(claims.azp)}, not ${[...authorizedParties].join(' or ')}`,
      );
    if (typeof claims.sub !== 'string' || !claims.sub) throw new Error('token has no subject');
    const caller: Caller = {
      userId: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      sessionId: typeof claims.sid === 'string' ? claims.sid : undefined,
      issuedAtSec: typeof claims.iat === 'number' ? claims.iat : 0,
      expiresAtMs: claims.exp * 1000,
      accessToken: token,
      clientId: claims.azp as string,
    };
    // A token not yet valid (`nbf` ahead) was refused above, so a cached one stays valid until `exp`.
    verified.set(token, { caller: Object.freeze(caller), kid: header.kid, key: realm.key });
    return caller;
  };

  /** The caller of a token whose signature and claims pass. @throws AppError `unauthenticated` */
  const verifiedCaller = async (token: string | undefined): Promise<Caller> => {
    try {
      if (!token) throw new Error('no token');
      return await check(token);
    } catch (error) {
      throw new AppError('unauthenticated', 'Unauthenticated', { cause: error });
    }
  };

  /** Refuses the caller when the revocation hook does. @throws AppError `unauthenticated`, `unavailable` */
  const refuseRevoked = async (caller: Caller): Promise<void> => {
    if (!options.isRevoked) return;
    let revoked: boolean;
    try {
      revoked = await options.isRevoked(caller);
    } catch (error) {
      throw kitFailure('unavailable', 'internal', { isTrusted: false, cause: error });
    }
    if (revoked)
      throw new AppError('unauthenticated', 'Unauthenticated', {
        cause: new Error('the session of the token has ended'),
      });
  };

  const verify = async (token: string | undefined): Promise<Caller> => {
    const caller = await verifiedCaller(token);
    await refuseRevoked(caller);
    return caller;
  };
  const alongside = async <T>(
    token: string | undefined,
    read: (caller: Caller) => Promise<T>,
  ): Promise<{ caller: Caller; value: T }> => {
    const caller = await verifiedCaller(token);
    const reading = read(caller);
    // Heard at once: a read that fails while the token is refused is not an unhandled rejection.
    reading.catch(() => undefined);
    await refuseRevoked(caller);
    return { caller, value: await reading };
  };
  return Object.assign(verify, { alongside });
}

/** `Authorization: Bearer <token>` → the token, else undefined. */
export const bearerOf = (header: string | undefined): string | undefined =>
  /^Bearer (.+)$/i.exec(header ?? '')?.[1];

/**
 * The token a socket.io client sent in its handshake (`auth: { token }`, docs/api.md).
 * @param handshake the socket's `handshake`
 */
export const handshakeTokenOf = (handshake: { auth?: unknown }): string | undefined => {
  const token = (handshake.auth as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
};

/**
 * Express middleware: requires `Authorization: Bearer <access token>` and
 * puts the {@link Caller} on `req.caller`; otherwise passes the verifier's
 * AppError on (401, or 503 from the revocation hook).
 */
export function requireAccessToken(verify: AccessTokenVerifier): RequestHandler {
  return async (req, _res, next) => {
    try {
      req.caller = await verify(bearerOf(req.headers.authorization));
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
