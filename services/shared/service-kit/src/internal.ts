/**
 * Internal (service-to-service) HTTP: the guard of internal endpoints and
 * the one HTTP client of the back ends — for internal endpoints (with the
 * calling service's access token), and for other services' user endpoints
 * and Keycloak's back channel (without it). Each calling service has its own
 * Keycloak client (docs/adr/0008); its client-credentials tokens
 * ({@link createServiceTokenSource}) travel in the `x-raly-service-token`
 * header, leaving `Authorization` for the user's token a call may forward.
 * The called service checks the token and that the route allows the caller
 * (`azp`, {@link requireServiceCaller}).
 */
import http from 'node:http';
import https from 'node:https';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/envelope';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { createAccessTokenVerifier, type AccessTokenVerifier, type KeycloakSettings } from './auth';
import { secretWithDevelopmentDefault } from './config';
import { AppError, kitFailure, type ErrorCode } from './errors';
import { timeUpstreamCall } from './metrics';
import { inClientSpan } from './tracing';

/**
 * The config lines of a service that calls or is called by other services:
 * its own confidential Keycloak client (docs/conventions.md). The secret's
 * development default matches infra/keycloak/raly-realm.json; production
 * mode refuses it (./config {@link secretWithDevelopmentDefault}).
 * @param clientId the service's client, e.g. `raly-brand-service`
 */
export function serviceClientConfigShape(clientId: string) {
  return {
    /** This service's client: its identity when it calls, the audience when it is called. */
    KEYCLOAK_SERVICE_CLIENT_ID: z.string().min(1).default(clientId),
    /** That client's secret (client-credentials grant). */
    KEYCLOAK_SERVICE_CLIENT_SECRET: secretWithDevelopmentDefault(
      z.string().min(16),
      `${clientId}-local-secret`,
    ),
  };
}

/** Where a service gets its access tokens: Keycloak's token endpoint and its client. */
export interface ServiceClientSettings {
  /** Back-channel base URL of Keycloak, e.g. `http://127.0.0.1:8080` (KEYCLOAK_URL). */
  keycloakUrl: string;
  realm: string;
  /** KEYCLOAK_SERVICE_CLIENT_ID. */
  clientId: string;
  /** KEYCLOAK_SERVICE_CLIENT_SECRET. */
  clientSecret: string;
  /** Timeout of one token request, in ms; default 5000. */
  timeoutMs?: number;
  /** A cached token is replaced this long before its expiry, in ms; default 30 000 (at most half its lifespan). */
  renewBeforeExpiryMs?: number;
}

/** The access tokens of one service's account. */
export interface ServiceTokenSource {
  /** The client whose tokens these are. */
  clientId: string;
  /**
   * A token still valid for a while: the cached one, else a new one from
   * Keycloak (concurrent callers share one request).
   * @throws AppError `unavailable` (503, untrusted) when Keycloak cannot be reached or refuses the client
   */
  token(): Promise<string>;
  /** Drops `token` from the cache (the called service refused it), so the next {@link token} fetches anew. */
  forget(token: string): void;
}

/**
 * Client-credentials tokens of one confidential client, cached until
 * shortly before they expire (Keycloak's access token lifespan, 300 s in
 * the realm), so a busy service asks Keycloak about once per lifespan.
 * @param settings the token endpoint's Keycloak and realm, the client and its secret
 */
export function createServiceTokenSource(settings: ServiceClientSettings): ServiceTokenSource {
  const endpoint = `${settings.keycloakUrl.replace(/\/$/, '')}/realms/${settings.realm}/protocol/openid-connect/token`;
  let cached: { token: string; renewAtMs: number } | undefined;
  let inFlight: Promise<string> | undefined;
  const fetchToken = async (): Promise<string> => {
    const answer = await callHttp(endpoint, {
      method: 'POST',
      form: {
        grant_type: 'client_credentials',
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
      },
      timeoutMs: settings.timeoutMs ?? 5000,
      unreachable: 'unavailable',
    });
    const body = answer.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (answer.status !== 200 || typeof body?.access_token !== 'string')
      throw kitFailure('unavailable', 'internal', {
        isTrusted: false,
        cause: new Error(
          `Keycloak answered ${answer.status} to the client-credentials grant of ${settings.clientId}`,
        ),
      });
    const lifespanMs = (typeof body.expires_in === 'number' ? body.expires_in : 60) * 1000;
    const renewBefore = Math.min(settings.renewBeforeExpiryMs ?? 30_000, lifespanMs / 2);
    cached = { token: body.access_token, renewAtMs: Date.now() + lifespanMs - renewBefore };
    return body.access_token;
  };
  return {
    clientId: settings.clientId,
    async token() {
      if (cached && Date.now() < cached.renewAtMs) return cached.token;
      inFlight ??= fetchToken().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    forget(token) {
      if (cached?.token === token) cached = undefined;
    },
  };
}

/**
 * The verifier of calls to this service: access tokens of the realm meant
 * for this service's client (`aud`), issued to one of `callers` (`azp`).
 * @param keycloak back-channel and public URL and realm, as for user tokens
 * @param ownClientId KEYCLOAK_SERVICE_CLIENT_ID of the called service
 * @param callers every client any internal route of this service allows
 */
export function createServiceCallerVerifier(
  keycloak: Pick<KeycloakSettings, 'url' | 'publicUrl' | 'realm'>,
  ownClientId: string,
  callers: readonly string[],
): AccessTokenVerifier {
  return createAccessTokenVerifier(
    { ...keycloak, audience: ownClientId, authorizedParty: callers },
    // Services call with a few long-lived tokens: a small cache holds them all.
    { verifiedTokensMax: 100 },
  );
}

/**
 * Express middleware of an internal route: lets the request through only
 * when `x-raly-service-token` carries an access token `verify` accepts,
 * issued to one of `allowed`. Otherwise 401 `unauthenticated` (no, bad or
 * expired token), or 403 `permission-denied` (a valid caller this route
 * does not allow).
 * @param verify from {@link createServiceCallerVerifier}
 * @param allowed the callers' client ids, e.g. `['raly-bff-service']`
 */
export function requireServiceCaller(
  verify: AccessTokenVerifier,
  allowed: readonly string[],
): RequestHandler {
  return async (req, _res, next) => {
    try {
      const caller = await verify(req.header(INTERNAL_TOKEN_HEADER));
      if (!allowed.includes(caller.clientId))
        throw new AppError('permission-denied', 'Permission denied', {
          cause: new Error(`${caller.clientId} may not call ${req.method} ${req.path}`),
        });
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The config lines {@link serviceTokenSourceOf} and {@link serviceCallerGuardsOf} read. */
export interface ServiceClientConfig {
  KEYCLOAK_URL: string;
  KEYCLOAK_PUBLIC_URL: string;
  KEYCLOAK_REALM: string;
  KEYCLOAK_SERVICE_CLIENT_ID: string;
  KEYCLOAK_SERVICE_CLIENT_SECRET: string;
}

/**
 * This service's access tokens for its calls, from its configuration.
 * @param config Keycloak's back channel, the realm, and {@link serviceClientConfigShape}'s lines
 */
export function serviceTokenSourceOf(config: ServiceClientConfig): ServiceTokenSource {
  return createServiceTokenSource({
    keycloakUrl: config.KEYCLOAK_URL,
    realm: config.KEYCLOAK_REALM,
    clientId: config.KEYCLOAK_SERVICE_CLIENT_ID,
    clientSecret: config.KEYCLOAK_SERVICE_CLIENT_SECRET,
  });
}

/**
 * The guards of this service's internal routes: one verifier (tokens meant
 * for this service's client, issued to any of `callers`) and, per route,
 * the callers it allows.
 * @param config Keycloak's addresses, the realm and this service's client id
 * @param callers every caller of any internal route, e.g. `[serviceClientIds.bff]`
 * @returns `allow(...clientIds)`: the {@link requireServiceCaller} middleware for those callers
 */
export function serviceCallerGuardsOf(
  config: Omit<ServiceClientConfig, 'KEYCLOAK_SERVICE_CLIENT_SECRET'>,
  callers: readonly string[],
): (...allowed: string[]) => RequestHandler {
  const verify = createServiceCallerVerifier(
    {
      url: config.KEYCLOAK_URL,
      publicUrl: config.KEYCLOAK_PUBLIC_URL,
      realm: config.KEYCLOAK_REALM,
    },
    config.KEYCLOAK_SERVICE_CLIENT_ID,
    callers,
  );
  return (...allowed) => requireServiceCaller(verify, allowed);
}

/** An answer of another service or Keycloak: status and parsed JSON body (undefined when empty or not JSON). */
export interface HttpAnswer {
  status: number;
  body: unknown;
}

export interface HttpCallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A JSON body, sent as `application/json`. */
  json?: unknown;
  /** Form fields, sent `application/x-www-form-urlencoded` (OpenID Connect token and logout endpoints). */
  form?: Record<string, string>;
  /** A user's access token to forward as `Authorization: Bearer`, when the endpoint acts for a user. */
  bearer?: string;
  /** Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * What a call that gets no answer (refused, reset, timed out) throws:
   * `'fetch-error'` (default) the HTTP client's own error (refused, reset, `TimeoutError`); `'unavailable'` an untrusted
   * AppError `unavailable` (503) with the spec's generic message, the host
   * and fetch's error as its cause.
   */
  unreachable?: 'fetch-error' | 'unavailable';
  /**
   * The callee's name in `raly_upstream_request_duration_seconds` (./metrics), e.g. `keycloak`,
   * `identity-profile`; default the URL's host:port.
   */
  target?: string;
}

/**
 * Calls any HTTP endpoint (another service's public or member endpoints,
 * Keycloak's back channel) without a service token.
 * @param url absolute URL
 * @returns status and body, whatever the status
 * @throws what `options.unreachable` says when no answer comes
 */
export async function callHttp(url: string, options: HttpCallOptions): Promise<HttpAnswer> {
  return send(url, {}, options);
}

/**
 * Calls another service's endpoint as this service: its access token in
 * `x-raly-service-token`. A 401 answer to a call without a user's token
 * (so the service token was refused: it expired on the way, or Keycloak's
 * keys rotated) is retried once with a new token; with a user's token the
 * 401 is most likely that token's, and is returned as is.
 * @param baseUrl e.g. `BRAND_URL`
 * @param tokens this service's {@link ServiceTokenSource}
 * @param path e.g. `/brands`
 * @returns status and body, whatever the status
 * @throws what `options.unreachable` says when the service cannot be reached or times out
 *   (by default whatever fetch throws); AppError `unavailable` when no token can be had
 */
export async function callInternal(
  baseUrl: string,
  tokens: ServiceTokenSource,
  path: string,
  options: HttpCallOptions,
): Promise<HttpAnswer> {
  const url = `${baseUrl.replace(/\/$/, '')}${path}`;
  const token = await tokens.token();
  const answer = await send(url, { [INTERNAL_TOKEN_HEADER]: token }, options);
  if (answer.status !== 401 || options.bearer) return answer;
  tokens.forget(token);
  return send(url, { [INTERNAL_TOKEN_HEADER]: await tokens.token() }, options);
}

/**
 * The kept-alive connections of every call: one agent per scheme,
 * so a BFF → service call reuses an open socket instead of connecting, and
 * node's plain HTTP client is used rather than fetch (less work per call).
 */
// An idle socket is dropped after 4 s, before node servers' own 5 s keep-alive
// timeout closes it under a request about to be sent on it.
const keptAlive = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 4000 };
const agents = { 'http:': new http.Agent(keptAlive), 'https:': new https.Agent(keptAlive) };

/**
 * One HTTP exchange on a kept-alive connection.
 * @returns the status and the body as text
 * @throws Error when no complete answer comes within `timeoutMs` (refused, reset, timed out)
 */
function exchange(
  url: URL,
  method: HttpCallOptions['method'],
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    const request = client.request(url, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', fail);
    });
    function fail(error: Error) {
      clearTimeout(timer);
      reject(error);
    }
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs} ms`);
      error.name = 'TimeoutError';
      request.destroy(error);
    }, timeoutMs);
    request.on('error', fail);
    request.end(body);
  });
}

async function send(
  url: string,
  extraHeaders: Record<string, string>,
  options: HttpCallOptions,
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const target = new URL(url);
  let answer: { status: number; text: string };
  try {
    // Timed by target (./metrics); a client span with the trace headers when a traced
    // request or message is in progress (./tracing).
    answer = await timeUpstreamCall(options.target ?? target.host, options.method, () =>
      inClientSpan(options.method, target, headers, () =>
        exchange(target, options.method, headers, body, options.timeoutMs ?? 10_000),
      ),
    );
  } catch (error) {
    if (options.unreachable !== 'unavailable') throw error;
    throw kitFailure('unavailable', 'internal', {
      isTrusted: false,
      cause: new Error(`${target.host} unavailable`, { cause: error }),
    });
  }
  let parsed: unknown;
  try {
    parsed = answer.text ? JSON.parse(answer.text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: answer.status, body: parsed };
}

/** The `error.code` of a service's error answer, if any. */
export function errorCodeOf(answer: HttpAnswer): string | undefined {
  const code = (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A service's error answer as an AppError, passed through unchanged
 * (docs/api.md): its code (even one the kit's table lacks), message, fields
 * and status; trusted below 500.
 * @param answer a non-2xx answer
 * @param fallbackMessage used when the body lacks `error.message`
 */
export function forwardedErrorOf(answer: HttpAnswer, fallbackMessage: string): AppError {
  const error = (
    answer.body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined
  )?.error;
  const code = typeof error?.code === 'string' ? error.code : 'internal';
  const message = typeof error?.message === 'string' ? error.message : fallbackMessage;
  const fields =
    error?.fields && typeof error.fields === 'object'
      ? (error.fields as Record<string, string>)
      : undefined;
  return new AppError(code as ErrorCode, message, {
    httpStatus: answer.status,
    isTrusted: answer.status < 500,
    fields,
  });
}

/**
 * The `data` of a 2xx `{ data }` answer.
 * @param fallbackMessage the message of the forwarded error when the body has none
 * @throws the service's error, passed through ({@link forwardedErrorOf}), on any other status
 */
export function dataOf<T>(answer: HttpAnswer, fallbackMessage: string): T {
  if (answer.status < 200 || answer.status >= 300) throw forwardedErrorOf(answer, fallbackMessage);
  return (answer.body as { data: T }).data;
}

/**
 * The error of a service's answer that the caller does not pass on as it is
 * (a saga step, a check on the caller's behalf): an untrusted AppError
 * `unavailable` when the service answered 503 (away for the moment, e.g. its
 * database), so that the caller's own failure (`failedBecauseOf` of ./errors)
 * stays a 503 worth trying again; a plain Error (the caller's 500) for any
 * other status.
 * @param answer the answer the caller did not expect
 * @param callee the service's name, e.g. `brand service`
 * @param call what was called, e.g. `POST /brands`
 * @returns the error to throw; it (or its cause) reads `<callee> answered <status> to <call>`
 */
export function unexpectedAnswerError(answer: HttpAnswer, callee: string, call: string): Error {
  const failure = new Error(`${callee} answered ${answer.status} to ${call}`);
  if (answer.status !== 503) return failure;
  return kitFailure('unavailable', 'internal', { isTrusted: false, cause: failure });
}
