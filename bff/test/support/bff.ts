/** Starts a real BFF in-process on a free port, with a consumer group of its own. */
import { randomUUID } from 'node:crypto';
import { startBff, type RunningBff } from '../../src/app';
import type { Config } from '../../src/config';
import assert from 'node:assert/strict';
import type { TestKeycloak } from './keycloak';
import { aCreatorAccount } from './records';
import type { TestStack } from './stack';

const generous = { points: 100_000, durationSeconds: 60 };
const generousRateLimits: Partial<Config> = {
  RATE_LIMIT_LOGIN_PER_EMAIL: generous,
  RATE_LIMIT_LOGIN_PER_IP: generous,
  RATE_LIMIT_LOGIN_PER_IP_AND_EMAIL: generous,
  RATE_LIMIT_LOGIN_PER_DEVICE: generous,
  RATE_LIMIT_VERIFY_PASSWORD_PER_USER: generous,
  RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL: generous,
  RATE_LIMIT_FORGOT_PASSWORD_PER_IP: generous,
  RATE_LIMIT_CALLABLE_PER_IP: generous,
  RATE_LIMIT_CREATE_ACCOUNT_PER_IP: generous,
  RATE_LIMIT_CREATE_ACCOUNT_PER_EMAIL: generous,
};

/**
 * @param stack connection settings of the test stack
 * @param overrides e.g. IDENTITY_URL of an in-process identity-profile
 */
export function startTestBff(
  stack: TestStack,
  overrides: Partial<Config> = {},
): Promise<RunningBff> {
  return startBff({
    port: 0,
    config: {
      REDIS_URL: stack.redisUrl,
      KAFKA_BROKERS: stack.kafkaBrokers,
      KAFKA_GROUP_ID: `bff-test-${randomUUID()}`,
      // Counters of this instance only, so test runs and files never share a budget.
      RATE_LIMIT_KEY_PREFIX: `bff-test-rate-${randomUUID()}`,
      // Every test comes from 127.0.0.1: limits out of the way unless a test sets its own.
      ...generousRateLimits,
      KEYCLOAK_URL: stack.keycloakUrl,
      KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
      KEYCLOAK_REALM: stack.realm,
      // Nothing listens here unless a test starts identity-profile and overrides it.
      IDENTITY_URL: 'http://127.0.0.1:14999',
      LOG_LEVEL: (process.env.LOG_LEVEL as Config['LOG_LEVEL']) ?? 'silent',
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
 */
export async function callBff<Data = unknown>(
  bff: RunningBff,
  method: string,
  path: string,
  options: {
    body?: unknown;
    token?: string;
    rawBody?: string;
    forwardedFor?: string;
    /** The `Cookie` request header, e.g. a device cookie answered by a sign-in. */
    cookie?: string;
  } = {},
): Promise<{ status: number; body: BffBody<Data>; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
  if (options.cookie) headers.cookie = options.cookie;
  const response = await fetch(`${bff.url}${path}`, {
    method,
    headers,
    body:
      options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as BffBody<Data>) : (undefined as unknown as BffBody<Data>),
    headers: response.headers,
  };
}

/**
 * Registers a creator through the BFF (`POST /api/accounts`); Keycloak forgets it at clean-up.
 * @returns the registration and the token set of the new user's session
 */
export async function registerCreator(bff: RunningBff, keycloak: TestKeycloak) {
  const account = aCreatorAccount();
  keycloak.forgetLater(account.registration.email);
  const answer = await callBff(bff, 'POST', '/api/accounts', { body: account });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return {
    ...account.registration,
    tokens: answer.body.data as { accessToken: string; refreshToken: string },
  };
}
