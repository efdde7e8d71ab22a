/**
 * A real BFF started in-process on a free port (through `@raly/bff/app`),
 * with a consumer group and rate-limit counters of its own, and JSON calls
 * to it (docs/api.md).
 */
import assert from 'node:assert/strict';
import {
  aCreatorAccount,
  callJson,
  uniqueToken,
  type JsonRequest,
  type TestKeycloak,
  type TestStack,
} from '@raly/test-stack';
import { startBffApp, type RunningBff } from './apps';

export type { RunningBff };

/** The BFF's settings (bff/src/config.ts). */
export type BffConfig = RunningBff['config'];

/** A rate limit no test file reaches (BFF config `<points>/<seconds>`, parsed). */
export const generousLimit = { points: 100_000, durationSeconds: 60 };

const generousRateLimits: Partial<BffConfig> = {
  RATE_LIMIT_LOGIN_PER_EMAIL: generousLimit,
  RATE_LIMIT_LOGIN_PER_IP: generousLimit,
  RATE_LIMIT_LOGIN_PER_IP_AND_EMAIL: generousLimit,
  RATE_LIMIT_LOGIN_PER_DEVICE: generousLimit,
  RATE_LIMIT_VERIFY_PASSWORD_PER_USER: generousLimit,
  RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL: generousLimit,
  RATE_LIMIT_FORGOT_PASSWORD_PER_IP: generousLimit,
  RATE_LIMIT_CALLABLE_PER_IP: generousLimit,
  RATE_LIMIT_REFRESH_PER_IP: generousLimit,
  RATE_LIMIT_CREATE_ACCOUNT_PER_IP: generousLimit,
  RATE_LIMIT_CREATE_ACCOUNT_PER_EMAIL: generousLimit,
  RATE_LIMIT_APPLY_PER_USER: generousLimit,
  RATE_LIMIT_CREATE_OFFER_PER_USER: generousLimit,
};

/**
 * Starts a BFF on port 0 against the test stack. Every test comes from
 * 127.0.0.1: rate limits are out of the way unless a test sets its own.
 * @param overrides e.g. IDENTITY_URL or OFFERS_URL of in-process services (default: nothing listens)
 */
export function startTestBff(
  stack: TestStack,
  overrides: Partial<BffConfig> = {},
): Promise<RunningBff> {
  return startBffApp({
    port: 0,
    config: {
      REDIS_URL: stack.redisUrl,
      KAFKA_BROKERS: stack.kafkaBrokers,
      KAFKA_GROUP_ID: `bff-test-${uniqueToken(12)}`,
      // Counters of this instance only, so test runs and files never share a budget.
      RATE_LIMIT_KEY_PREFIX: `bff-test-rate-${uniqueToken(12)}`,
      ...generousRateLimits,
      KEYCLOAK_URL: stack.keycloakUrl,
      KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
      KEYCLOAK_REALM: stack.realm,
      IDENTITY_URL: 'http://127.0.0.1:14999',
      // Nothing listens there either: a test that needs offers, collaborations or moderation
      // passes its URL, and no test reaches a service of `npm start` (offers 4004,
      // collaborations 4005, moderation 4007).
      OFFERS_URL: 'http://127.0.0.1:14999',
      COLLABORATIONS_URL: 'http://127.0.0.1:14999',
      MODERATION_URL: 'http://127.0.0.1:14999',
      LOG_LEVEL: (process.env.LOG_LEVEL as BffConfig['LOG_LEVEL']) ?? 'silent',
      ...overrides,
    },
  });
}

/** The error half of a BFF answer (docs/api.md § Errors). */
export interface BffError {
  code: string;
  message: string;
  /** The callable status, on /api/callable answers. */
  status?: string;
  /** Per-field messages of a 400 invalid-argument. */
  fields?: Record<string, string>;
}

/**
 * A BFF answer body: `{ data }` on success, `{ error }` on failure. Both are typed as
 * present so a test that has already asserted the status can read the half it expects.
 */
export interface BffBody<Data> {
  data: Data;
  error: BffError;
}

/**
 * JSON request to the BFF.
 * @typeParam Data the route's `data` on success (docs/api.md); `unknown` when the test only compares it whole
 * @param options body, rawBody, token, forwardedFor (`x-forwarded-for`), cookie
 */
export function callBff<Data = unknown>(
  bff: { url: string },
  method: string,
  path: string,
  options: Omit<JsonRequest, 'headers' | 'serviceToken'> & {
    forwardedFor?: string;
    /** The `Cookie` request header, e.g. a device cookie answered by a sign-in. */
    cookie?: string;
  } = {},
) {
  const { forwardedFor, cookie, ...request } = options;
  const headers: Record<string, string> = {};
  if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
  if (cookie) headers.cookie = cookie;
  return callJson<BffBody<Data>>(bff.url, method, path, { ...request, headers });
}

/**
 * Registers a creator through the BFF (`POST /api/accounts`); Keycloak forgets it at clean-up.
 * @returns the registration and the token set of the new user's session
 */
export async function registerCreator(bff: { url: string }, keycloak: TestKeycloak) {
  const account = aCreatorAccount();
  keycloak.forgetLater(account.registration.email);
  const answer = await callBff<{ accessToken: string; refreshToken: string }>(
    bff,
    'POST',
    '/api/accounts',
    { body: account },
  );
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return { ...account.registration, tokens: answer.body.data };
}
