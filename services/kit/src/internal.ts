/**
 * Internal (service-to-service) HTTP: the guard of internal endpoints and
 * the client that calls them. Both sides share `INTERNAL_SERVICE_TOKEN`,
 * sent in the `x-raly-service-token` header (docs/api.md "Internal
 * endpoints"). The BFF never proxies these paths, and the token never
 * reaches a browser.
 */
import { timingSafeEqual } from 'node:crypto';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from './errors';

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

/** An answer of another service: status and parsed JSON body (undefined when empty or not JSON). */
export interface InternalAnswer {
  status: number;
  body: unknown;
}

export interface InternalCallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  json?: unknown;
  /** A user's bearer token to forward, when the endpoint acts for a user. */
  bearer?: string;
  /** Default 10 000 ms. */
  timeoutMs?: number;
}

/**
 * Calls another service's endpoint with the service token.
 * @param baseUrl e.g. `BRAND_URL`
 * @param token `INTERNAL_SERVICE_TOKEN`
 * @returns status and body, whatever the status
 * @throws whatever fetch throws when the service cannot be reached or times out
 */
export async function callInternal(
  baseUrl: string,
  token: string,
  path: string,
  options: InternalCallOptions,
): Promise<InternalAnswer> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    [INTERNAL_TOKEN_HEADER]: token,
  };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const response = await fetch(`${baseUrl.replace(/\/$/, '')}${path}`, {
    method: options.method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

/** The `error.code` of a service's error answer, if any. */
export function errorCodeOf(answer: InternalAnswer): string | undefined {
  const code = (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}
