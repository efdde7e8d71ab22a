/**
 * Rate limits of the public routes (docs/api.md "Rate limits"), counted in
 * the real Redis, with low limits set through the configuration. Client
 * addresses come from X-Forwarded-For, which the BFF trusts from loopback
 * (TRUST_PROXY default), so each test acts as clients of its own.
 * Also: Keycloak's brute-force detection locks an account after the realm's
 * failure factor.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { messages } from '@raly/contracts/messages';
import type { RunningBff } from '../src/app';
import { callBff, startTestBff } from './support/bff';
import { testKeycloak, type TestKeycloak } from './support/keycloak';
import { uniqueSuffix } from './support/records';
import { testStack, type TestStack } from './support/stack';

const limit = (points: number) => ({ points, durationSeconds: 600 });

/** A client address of its own for each call site. */
let lastOctet = 0;
const aClientAddress = () => `198.51.100.${++lastOctet}`;
const anEmail = () => `limited.${uniqueSuffix()}@example.test`;

describe('rate limits', () => {
  let bff: RunningBff;
  let keycloak: TestKeycloak;
  let stack: TestStack;

  before(async () => {
    stack = await testStack();
    bff = await startTestBff(stack, {
      RATE_LIMIT_LOGIN_PER_EMAIL: limit(3),
      RATE_LIMIT_LOGIN_PER_IP: limit(5),
      RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL: limit(2),
      RATE_LIMIT_FORGOT_PASSWORD_PER_IP: limit(4),
      RATE_LIMIT_CALLABLE_PER_IP: limit(3),
      RATE_LIMIT_CREATE_ACCOUNT_PER_IP: limit(2),
    });
    keycloak = testKeycloak(stack);
  });

  after(async () => {
    await bff?.stop();
    await keycloak?.cleanUp();
  });

  const post = (path: string, body: unknown, forwardedFor: string) =>
    callBff(bff, 'POST', path, { body, forwardedFor });

  /** Sends `count` requests one after the other and answers their statuses. */
  async function statuses(count: number, send: (index: number) => Promise<{ status: number }>) {
    const result: number[] = [];
    for (let index = 0; index < count; index += 1) result.push((await send(index)).status);
    return result;
  }

  test('when one e-mail is tried more often than its sign-in limit, then the next try answers 429 resource-exhausted, from any address', async () => {
    // Arrange
    const email = anEmail();
    await statuses(3, () =>
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

  test("when a password is guessed wrong as often as the realm's failure factor, then Keycloak locks the account and even the right password fails", async () => {
    // Arrange
    const realm = JSON.parse(
      readFileSync(new URL('../../infra/keycloak/raly-realm.json', import.meta.url), 'utf8'),
    ) as { bruteForceProtected: boolean; failureFactor: number; permanentLockout: boolean };
    assert.equal(realm.bruteForceProtected, true);
    assert.equal(realm.permanentLockout, false);
    const user = await keycloak.createUser();
    const tokenUrl = `${stack.keycloakUrl}/realms/${stack.realm}/protocol/openid-connect/token`;
    for (let attempt = 0; attempt < realm.failureFactor; attempt += 1) {
      await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: 'raly-web',
          username: user.email,
          password: `wrong-${attempt}`,
        }),
      });
    }

    // Act
    const answer = await post(
      '/api/auth/login',
      { email: user.email, password: user.password },
      aClientAddress(),
    );

    // Assert
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error.message, messages.incorrectLogin);
    assert.equal(await keycloak.isLockedOut(user.id), true);
  });
});
