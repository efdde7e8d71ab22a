/**
 * Rate limits of the public routes (docs/api.md "Rate limits"), counted in
 * the real Redis, with low limits set through the configuration
 * (./support/rate-limits): sign-in per e-mail and address, reset links,
 * refresh, callables, account creation, and whose address counts.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { RunningBff } from '../src/app';
import { loadConfig } from '../src/config';
import type { TestKeycloak } from '@raly/test-support';
import { callBff } from '@raly/test-support/bff';
import {
  aClientAddress,
  anEmail,
  postThrough,
  type RateLimitedBffs,
  startRateLimitedBffs,
  statuses,
} from './support/rate-limits';

let bff: RunningBff;
let direct: RunningBff;
let keycloak: TestKeycloak;
let bffs: RateLimitedBffs | undefined;

beforeAll(async () => {
  bffs = await startRateLimitedBffs();
  ({ bff, direct, keycloak } = bffs);
});

afterAll(async () => {
  await bffs?.stop();
});

const post = postThrough(() => bff);

describe('rate limits', () => {
  test('when one e-mail fails more often than its sign-in limit, then the next try without its device cookie answers 429 resource-exhausted, from any address', async () => {
    // Arrange
    const email = anEmail();
    await statuses(10, () =>
      post('/api/auth/login', { email, password: 'wrong-password' }, aClientAddress()),
    );

    // Act
    const answer = await post(
      '/api/auth/login',
      { email, password: 'wrong-password' },
      aClientAddress(),
    );

    // Assert
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, 'resource-exhausted');
    assert.match(answer.body.error.message, /Too many attempts/);
    assert.ok(Number(answer.headers.get('retry-after')) > 0);
  });

  test('when one address signs in more often than its limit, then it gets 429 while another address still gets through', async () => {
    // Arrange
    const address = aClientAddress();
    const tries = await statuses(5, () =>
      post('/api/auth/login', { email: anEmail(), password: 'x-password' }, address),
    );

    // Act
    const limited = await post(
      '/api/auth/login',
      { email: anEmail(), password: 'x-password' },
      address,
    );
    const other = await post(
      '/api/auth/login',
      { email: anEmail(), password: 'x-password' },
      aClientAddress(),
    );

    // Assert
    assert.deepEqual(tries, [401, 401, 401, 401, 401]);
    assert.equal(limited.status, 429);
    assert.equal(other.status, 401);
    assert.equal(other.body.error.message, messages.incorrectLogin);
  });

  test('when reset links for one e-mail are asked more often than its limit, then the next ask answers 429', async () => {
    // Arrange
    const email = anEmail();
    const first = await statuses(2, () =>
      post('/api/auth/forgot-password', { email }, aClientAddress()),
    );

    // Act
    const answer = await post('/api/auth/forgot-password', { email }, aClientAddress());

    // Assert
    assert.ok(!first.includes(429));
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, 'resource-exhausted');
  });

  test('when one address asks for reset links more often than its limit, then the next ask answers 429', async () => {
    // Arrange
    const address = aClientAddress();
    const first = await statuses(4, () =>
      post('/api/auth/forgot-password', { email: anEmail() }, address),
    );

    // Act
    const answer = await post('/api/auth/forgot-password', { email: anEmail() }, address);

    // Assert
    assert.ok(!first.includes(429));
    assert.equal(answer.status, 429);
  });

  test('when one address refreshes more often than its limit, then it gets 429 with Retry-After while another address still refreshes', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const signedIn = await post('/api/auth/login', user, aClientAddress());
    assert.equal(signedIn.status, 200);
    let refreshToken = (signedIn.body.data as { refreshToken: string }).refreshToken;
    const spent = aClientAddress();
    const refreshFrom = async (address: string) => {
      const answer = await post('/api/auth/refresh', { refreshToken }, address);
      if (answer.status === 200)
        refreshToken = (answer.body.data as { refreshToken: string }).refreshToken;
      return answer;
    };
    const allowed = await statuses(3, () => refreshFrom(spent));

    // Act
    const answer = await refreshFrom(spent);

    // Assert
    assert.deepEqual(allowed, [200, 200, 200]);
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, 'resource-exhausted');
    assert.ok(Number(answer.headers.get('retry-after')) > 0);
    assert.equal((await refreshFrom(aClientAddress())).status, 200);
  });

  test("when one address calls the callables more often than its limit, then the callable error reads status 'resource-exhausted'", async () => {
    // Arrange
    const address = aClientAddress();
    const first = await statuses(3, (index) =>
      post(
        index % 2 ? '/api/callable/checkUsernameExists' : '/api/callable/checkEmailExists',
        { data: index % 2 ? { username: 'someone' } : { email: anEmail() } },
        address,
      ),
    );

    // Act
    const answer = await post(
      '/api/callable/checkUsernameExists',
      { data: { username: 'someone' } },
      address,
    );

    // Assert
    assert.ok(!first.includes(429));
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, 'resource-exhausted');
    assert.equal(answer.body.error.status, 'resource-exhausted');
  });

  test('when two clients behind the trusted proxy have different forwarded addresses, then each has a budget of its own', async () => {
    // Arrange
    const spent = aClientAddress();
    await statuses(3, () =>
      post('/api/callable/checkEmailExists', { data: { email: anEmail() } }, spent),
    );

    // Act
    const limited = await post(
      '/api/callable/checkEmailExists',
      { data: { email: anEmail() } },
      spent,
    );
    const other = await post(
      '/api/callable/checkEmailExists',
      { data: { email: anEmail() } },
      aClientAddress(),
    );

    // Assert
    assert.equal(limited.status, 429);
    assert.notEqual(other.status, 429);
  });

  test('when HOST is not configured, then the BFF listens on loopback only', () => {
    assert.equal(loadConfig({}).HOST, '127.0.0.1');
    assert.equal(direct.host, '127.0.0.1');
  });

  test('when a client that reaches the BFF directly sends X-Forwarded-For, then its calls still count against its own address', async () => {
    // Arrange: the enumeration oracle, with a new forged address on every call.
    const first = await statuses(3, () =>
      callBff(direct, 'POST', '/api/callable/checkEmailExists', {
        body: { data: { email: anEmail() } },
        forwardedFor: aClientAddress(),
      }),
    );

    // Act
    const answer = await callBff(direct, 'POST', '/api/callable/checkEmailExists', {
      body: { data: { email: anEmail() } },
      forwardedFor: aClientAddress(),
    });

    // Assert
    assert.ok(!first.includes(429));
    assert.equal(answer.status, 429);
  });

  test('when one address creates accounts more often than its limit, then the next creation answers 429', async () => {
    // Arrange
    const address = aClientAddress();
    const first = await statuses(2, () =>
      post('/api/accounts', { isBrand: false, registration: {} }, address),
    );

    // Act
    const answer = await post('/api/accounts', { isBrand: false, registration: {} }, address);

    // Assert
    assert.ok(!first.includes(429));
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, 'resource-exhausted');
  });

  test('when one e-mail is registered more often than its limit, then the next registration answers 429, from any address', async () => {
    // Arrange
    const registration = { email: anEmail().toUpperCase() };
    const first = await post('/api/accounts', { isBrand: false, registration }, aClientAddress());

    // Act
    const answer = await post(
      '/api/accounts',
      { isBrand: false, registration: { email: registration.email.toLowerCase() } },
      aClientAddress(),
    );

    // Assert
    assert.notEqual(first.status, 429);
    assert.equal(answer.status, 429);
  });

  test('when one address fails for one e-mail more often than its limit, then that address gets 429 for it while another address still gets an answer', async () => {
    // Arrange
    const email = anEmail();
    const address = aClientAddress();
    const tries = await statuses(3, () =>
      post('/api/auth/login', { email, password: 'wrong-password' }, address),
    );

    // Act
    const limited = await post('/api/auth/login', { email, password: 'wrong-password' }, address);
    const other = await post(
      '/api/auth/login',
      { email, password: 'wrong-password' },
      aClientAddress(),
    );

    // Assert
    assert.deepEqual(tries, [401, 401, 401]);
    assert.equal(limited.status, 429);
    assert.equal(other.status, 401);
  });
});
