/**
 * Internal (service-to-service) HTTP: the guard of internal endpoints and
 * the one HTTP client of Raly's back ends — for internal endpoints (with the
 * service token), and for other services' user endpoints and Keycloak's back
 * channel (without it). Both sides share `INTERNAL_SERVICE_TOKEN`,
 * sent in the `x-raly-service-token` header (docs/api.md "Internal
 * endpoints"). The BFF never proxies these paths, and the token never
 * reaches a browser.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { messages } from '@raly/contracts/messages';
import { AppError, type ErrorCode } from './errors';
import { timeUpstreamCall } from './metrics';

/** The config line every service with internal calls adds (local default for development only). */
export const internalServiceTokenShape = {
  INTERNAL_SERVICE_TOKEN: z.string().min(16).default('raly-internal-local-token'),
};

/**
 * Express middleware: lets the request through only when it carries the
 * exact service token; otherwise 401 `unauthenticated`.
 * @param token the expected `INTERNAL_SERVICE_TOKEN`
 */
export function requireServiceToken(token: string): RequestHandler {
  const expected = Buffer.from(token);
  return (req, _res, next) => {
    const given = Buffer.from(req.header(INTERNAL_TOKEN_HEADER) ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) next();
    else next(new AppError('unauthenticated', 'Unauthenticated'));
  };
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
 * Keycloak's back channel) without the service token.
 * @param url absolute URL
 * @returns status and body, whatever the status
 * @throws what `options.unreachable` says when no answer comes
 */
export async function callHttp(url: string, options: HttpCallOptions): Promise<HttpAnswer> {
  return send(url, {}, options);
}

/**
 * Calls another service's endpoint with the service token.
 * @param baseUrl e.g. `BRAND_URL`
 * @param token `INTERNAL_SERVICE_TOKEN`
 * @param path e.g. `/brands`
 * @returns status and body, whatever the status
 * @throws what `options.unreachable` says when the service cannot be reached or times out
 *   (by default whatever fetch throws)
 */
export async function callInternal(
  baseUrl: string,
  token: string,
  path: string,
  options: HttpCallOptions,
): Promise<HttpAnswer> {
  return send(`${baseUrl.replace(/\/$/, '')}${path}`, { [INTERNAL_TOKEN_HEADER]: token }, options);
}

/**
 * The kept-alive connections of every call (issue 10): one agent per scheme,
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
    answer = await timeUpstreamCall(options.target ?? target.host, options.method, () =>
      exchange(target, options.method, headers, body, options.timeoutMs ?? 10_000),
    );
  } catch (error) {
    if (options.unreachable !== 'unavailable') throw error;
    throw new AppError('unavailable', messages.genericProblem, {
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
