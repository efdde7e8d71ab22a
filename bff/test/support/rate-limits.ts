/**
 * Two BFFs with low rate limits on the real Redis, for the rate-limit suites:
 * one behind a trusted proxy on loopback (TRUST_PROXY=loopback; the test
 * plays the proxy and names each client in X-Forwarded-For, so each test acts
 * as clients of its own, and it reaches a test identity-profile), and one
 * reached directly (TRUST_PROXY default).
 */
import assert from 'node:assert/strict';
import { DEVICE_COOKIE_NAME } from '../../src/api/device-cookie';
import { loadConfig } from '../../src/config';
import type { RunningBff } from '../../src/app';
import {
  type TestKeycloak,
  testKeycloak,
  testStack,
  type TestStack,
  uniqueToken,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import { startService, type RunningService } from '@raly/test-support/system';

export const limit = (points: number) => ({ points, durationSeconds: 600 });

let lastOctet = 0;
/** A client address of its own for each call site (a suite's BFFs count in Redis keys of their own). */
export const aClientAddress = () => `198.51.100.${++lastOctet}`;
export const anEmail = () => `limited.${uniqueToken()}@example.test`;

/** The `name=value` part of the device cookie an answer sets, if any. */
export const deviceCookieOf = (headers: Headers): string | undefined =>
  headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${DEVICE_COOKIE_NAME}=`));

export interface RateLimitedBffs {
  /** Behind the trusted proxy (the test), with identity-profile. */
  bff: RunningBff;
  /** Reached directly: X-Forwarded-For is not trusted. */
  direct: RunningBff;
  keycloak: TestKeycloak;
  stack: TestStack;
  stop(): Promise<void>;
}

/** Starts identity-profile and both BFFs with the suites' low limits. */
export async function startRateLimitedBffs(): Promise<RateLimitedBffs> {
  const stack = await testStack();
  const limits = {
    RATE_LIMIT_LOGIN_PER_EMAIL: limit(10),
    RATE_LIMIT_LOGIN_PER_IP_AND_EMAIL: limit(3),
    RATE_LIMIT_LOGIN_PER_IP: limit(5),
    RATE_LIMIT_LOGIN_PER_DEVICE: limit(3),
    RATE_LIMIT_VERIFY_PASSWORD_PER_USER: limit(3),
    RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL: limit(2),
    RATE_LIMIT_FORGOT_PASSWORD_PER_IP: limit(4),
    RATE_LIMIT_CALLABLE_PER_IP: limit(3),
    RATE_LIMIT_REFRESH_PER_IP: limit(3),
    RATE_LIMIT_CREATE_ACCOUNT_PER_IP: limit(2),
    RATE_LIMIT_CREATE_ACCOUNT_PER_EMAIL: limit(1),
  };
  const identity: RunningService = await startService('identity-profile', { stack });
  const bff = await startTestBff(stack, {
    ...limits,
    TRUST_PROXY: 'loopback',
    IDENTITY_URL: identity.url,
  });
  const direct = await startTestBff(stack, {
    ...limits,
    TRUST_PROXY: loadConfig({}).TRUST_PROXY,
  });
  const keycloak = testKeycloak(stack);
  return {
    bff,
    direct,
    keycloak,
    stack,
    async stop() {
      await bff.stop();
      await direct.stop();
      await identity.stop();
      await keycloak.cleanUp();
    },
  };
}

/** A POST through the trusted proxy on behalf of the client at `forwardedFor`. */
export const postThrough =
  (bff: () => RunningBff) => (path: string, body: unknown, forwardedFor: string, cookie?: string) =>
    callBff(bff(), 'POST', path, { body, forwardedFor, cookie });

/** Signs `user` in from `address` through `bff` and answers the device cookie the BFF gave. */
export async function signInForDeviceCookie(
  bff: RunningBff,
  user: { email: string; password: string },
  address: string,
): Promise<string> {
  const answer = await callBff(bff, 'POST', '/api/auth/login', {
    body: user,
    forwardedFor: address,
  });
  assert.equal(answer.status, 200);
  const cookie = deviceCookieOf(answer.headers);
  assert.ok(cookie, 'a successful sign-in sets the device cookie');
  return cookie;
}

/** Sends `count` requests one after the other and answers their statuses. */
export async function statuses(
  count: number,
  send: (index: number) => Promise<{ status: number }>,
): Promise<number[]> {
  const result: number[] = [];
  for (let index = 0; index < count; index += 1) result.push((await send(index)).status);
  return result;
}

/**
 * Asserts a rate limit's refusal (docs/api.md "Rate limits"): 429 `resource-exhausted` with the
 * product's message and a `Retry-After` of 1 to `windowSeconds` seconds.
 */
export function assertTooManyRequests(
  answer: { status: number; headers: Headers; body: unknown },
  windowSeconds: number,
): void {
  const { error } = answer.body as { error?: { code?: string; message?: string } };
  assert.equal(answer.status, 429, JSON.stringify(answer.body));
  assert.equal(error?.code, 'resource-exhausted');
  assert.match(error?.message ?? '', /^Too many attempts\. Please try again in \d+ minutes?\.$/);
  const retryAfter = Number(answer.headers.get('retry-after'));
  assert.ok(retryAfter > 0 && retryAfter <= windowSeconds, `Retry-After ${retryAfter}`);
}
