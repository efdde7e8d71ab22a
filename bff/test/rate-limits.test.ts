/**
 * Rate limits of the public routes (docs/api.md "Rate limits"), counted in
 * the real Redis, with low limits set through the configuration. Two BFFs:
 * one behind a trusted proxy on loopback (TRUST_PROXY=loopback; the test
 * plays the proxy and names each client in X-Forwarded-For, so each test acts
 * as clients of its own, and it reaches a test identity-profile), and one
 * reached directly (TRUST_PROXY default).
 * Sign-in follows the device-cookie scheme; Keycloak's brute-force detection
 * is the backstop for direct calls to Keycloak.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { RunningBff } from '../src/app';
import { DEVICE_COOKIE_NAME } from '../src/api/device-cookie';
import { loadConfig } from '../src/config';
import {
  aCreatorAccount,
  loginClientId,
  type TestKeycloak,
  testKeycloak,
  testStack,
  type TestStack,
  uniqueToken,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import { startService, type RunningService } from '@raly/test-support/system';

const limit = (points: number) => ({ points, durationSeconds: 600 });

/** A client address of its own for each call site. */
let lastOctet = 0;
const aClientAddress = () => `198.51.100.${++lastOctet}`;
const anEmail = () => `limited.${uniqueToken()}@example.test`;

/** The realm's brute-force settings (infra/keycloak/raly-realm.json). */
const realm = JSON.parse(
  readFileSync(new URL('../../infra/keycloak/raly-realm.json', import.meta.url), 'utf8'),
) as {
  bruteForceProtected: boolean;
  failureFactor: number;
  permanentLockout: boolean;
  maxDeltaTimeSeconds: number;
  quickLoginCheckMilliSeconds: number;
};

/** The `name=value` part of the device cookie an answer sets, if any. */
const deviceCookieOf = (headers: Headers): string | undefined =>
  headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${DEVICE_COOKIE_NAME}=`));

describe('rate limits', () => {
  let bff: RunningBff;
  let direct: RunningBff;
  let keycloak: TestKeycloak;
  let stack: TestStack;
  let identity: RunningService;

  beforeAll(async () => {
    stack = await testStack();
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
    identity = await startService('identity-profile', { stack });
    bff = await startTestBff(stack, {
      ...limits,
      TRUST_PROXY: 'loopback',
      IDENTITY_URL: identity.url,
    });
    direct = await startTestBff(stack, {
      ...limits,
      TRUST_PROXY: loadConfig({}).TRUST_PROXY,
    });
    keycloak = testKeycloak(stack);
  });

  afterAll(async () => {
    await bff?.stop();
    await direct?.stop();
    await identity?.stop();
    await keycloak?.cleanUp();
  });

  /** A call through the trusted proxy on behalf of the client at `forwardedFor`. */
  const post = (path: string, body: unknown, forwardedFor: string, cookie?: string) =>
    callBff(bff, 'POST', path, { body, forwardedFor, cookie });

  /** Signs `user` in from `address` and answers the device cookie the BFF gave. */
  async function signInForDeviceCookie(
    user: { email: string; password: string },
    address: string,
  ): Promise<string> {
    const answer = await post('/api/auth/login', user, address);
    assert.equal(answer.status, 200);
    const cookie = deviceCookieOf(answer.headers);
    assert.ok(cookie, 'a successful sign-in sets the device cookie');
    return cookie;
  }

  /** Sends `count` requests one after the other and answers their statuses. */
  async function statuses(count: number, send: (index: number) => Promise<{ status: number }>) {
    const result: number[] = [];
    for (let index = 0; index < count; index += 1) result.push((await send(index)).status);
    return result;
  }

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

  test('when a user signs in, then the answer sets an httpOnly, SameSite=Strict device cookie for the sign-in routes, and the sign-in does not count against the budgets', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const address = aClientAddress();

    // Act
    const answers = await statuses(5, () => post('/api/auth/login', user, address));
    const last = await post('/api/auth/login', user, address);

    // Assert
    assert.deepEqual(answers, [200, 200, 200, 200, 200]);
    const [cookie] = last.headers.getSetCookie();
    assert.match(cookie ?? '', new RegExp(`^${DEVICE_COOKIE_NAME}=`));
    assert.match(cookie ?? '', /; HttpOnly/i);
    assert.match(cookie ?? '', /; SameSite=Strict/i);
    assert.match(cookie ?? '', /; Path=\/api\/auth/i);
  });

  test('when strangers guess wrong ten times, then they are stopped, and the owner with a device cookie still signs in with the right password', async () => {
    // Arrange
    const owner = await keycloak.createUser();
    const cookie = await signInForDeviceCookie(owner, aClientAddress());
    const guesses = await statuses(10, (index) =>
      post('/api/auth/login', { email: owner.email, password: `guess-${index}` }, aClientAddress()),
    );

    // Act
    const stranger = await post('/api/auth/login', owner, aClientAddress());
    const ownerAnswer = await post('/api/auth/login', owner, aClientAddress(), cookie);

    // Assert
    assert.deepEqual(guesses, Array(10).fill(401));
    assert.equal(stranger.status, 429);
    assert.equal(stranger.body.error.code, 'resource-exhausted');
    assert.equal(ownerAnswer.status, 200);
    assert.equal(await keycloak.isLockedOut(owner.id), false);
  });

  test('when a device cookie of one e-mail comes with another e-mail whose budget is spent, then it does not let the stranger through', async () => {
    // Arrange
    const victim = await keycloak.createUser();
    const attacker = await keycloak.createUser();
    const attackerCookie = await signInForDeviceCookie(attacker, aClientAddress());
    await statuses(10, (index) =>
      post(
        '/api/auth/login',
        { email: victim.email, password: `guess-${index}` },
        aClientAddress(),
      ),
    );

    // Act
    const answer = await post(
      '/api/auth/login',
      { email: victim.email, password: 'guess-x' },
      aClientAddress(),
      attackerCookie,
    );
    const forged = await post(
      '/api/auth/login',
      { email: victim.email, password: 'guess-y' },
      aClientAddress(),
      `${DEVICE_COOKIE_NAME}=forged.${Math.floor(Date.now() / 1000)}.AAAA`,
    );

    // Assert
    assert.equal(answer.status, 429);
    assert.equal(forged.status, 429);
  });

  test('when a browser with a device cookie guesses wrong more often than its own limit, then it gets 429 too', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const address = aClientAddress();
    const cookie = await signInForDeviceCookie(user, address);
    const tries = await statuses(3, (index) =>
      post('/api/auth/login', { email: user.email, password: `wrong-${index}` }, address, cookie),
    );

    // Act
    const answer = await post('/api/auth/login', user, address, cookie);

    // Assert
    assert.deepEqual(tries, [401, 401, 401]);
    assert.equal(answer.status, 429);
  });

  test('when a signed-in user checks their password more often than the verify-password limit, then the next check answers 429', async () => {
    // Arrange
    const user = await keycloak.createUser();
    const signedIn = await post('/api/auth/login', user, aClientAddress());
    const token = (signedIn.body.data as { accessToken: string }).accessToken;
    const verify = (password: string) =>
      callBff(bff, 'POST', '/api/auth/verify-password', {
        body: { password },
        token,
        forwardedFor: aClientAddress(),
      });
    const first = await statuses(3, (index) => verify(`wrong-${index}`));

    // Act
    const answer = await verify(user.password);

    // Assert
    assert.ok(!first.includes(429));
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, 'resource-exhausted');
  });

  test('when a user spends the password-check budget with verify-password and e-mail changes together, then the next e-mail change answers 429 with Retry-After and nothing changes', async () => {
    // Arrange
    const account = aCreatorAccount();
    const { email, password } = account.registration;
    keycloak.forgetLater(email);
    const created = await post('/api/accounts', account, aClientAddress());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const token = (created.body.data as { accessToken: string }).accessToken;
    const newEmail = anEmail();
    keycloak.forgetLater(newEmail);
    const changeEmail = (currentPassword: string) =>
      callBff(bff, 'PATCH', '/api/me', {
        body: { email: newEmail, currentPassword },
        token,
        forwardedFor: aClientAddress(),
      });
    const verify = (attempt: string) =>
      callBff(bff, 'POST', '/api/auth/verify-password', {
        body: { password: attempt },
        token,
        forwardedFor: aClientAddress(),
      });
    const spent = [
      (await verify('wrong-0')).status,
      (await changeEmail('wrong-1')).status,
      (await changeEmail('wrong-2')).status,
    ];

    // Act
    const answer = await changeEmail(password);

    // Assert
    assert.deepEqual(spent, [401, 401, 401]);
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, 'resource-exhausted');
    assert.ok(Number(answer.headers.get('retry-after')) > 0);
    const me = await callBff(bff, 'GET', '/api/me', { token, forwardedFor: aClientAddress() });
    assert.equal(me.status, 200);
    assert.equal((me.body.data as { user: { email: string } }).user.email, email);
    assert.equal((await verify(password)).status, 429);
  });

  test("when the realm is read, then Keycloak's lock-out is out of reach of the BFF's per-e-mail budget and quick guesses do not lock", () => {
    // Failures closer than maxDeltaTimeSeconds chain up; two fixed windows of the BFF's budget
    // can meet back to back, and the owner needs room for typos of their own.
    const perEmail = loadConfig({}).RATE_LIMIT_LOGIN_PER_EMAIL;
    assert.equal(realm.bruteForceProtected, true);
    assert.ok(realm.failureFactor >= 4 * perEmail.points, `failureFactor ${realm.failureFactor}`);
    assert.ok(
      realm.maxDeltaTimeSeconds * perEmail.points < perEmail.durationSeconds,
      'a spent window ends a chain of failures',
    );
    assert.equal(realm.quickLoginCheckMilliSeconds, 0);
  });

  test("when a password is guessed wrong directly at Keycloak (with the sign-in client's secret) as often as the realm's failure factor, then Keycloak locks the account and even the right password fails", async () => {
    // Arrange
    assert.equal(realm.permanentLockout, false);
    const user = await keycloak.createUser();
    const tokenUrl = `${stack.keycloakUrl}/realms/${stack.realm}/protocol/openid-connect/token`;
    const guessWrong = (attempt: number) =>
      fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: loginClientId,
          client_secret: stack.loginClientSecret,
          username: user.email,
          password: `wrong-${attempt}`,
        }),
      }).then((answer) => answer.arrayBuffer());
    let attempts = 0;
    for (; attempts < realm.failureFactor; attempts += 1) await guessWrong(attempts);
    // Keycloak records login failures asynchronously, and under load it has been seen to miss
    // some: wait (bounded) for the lock, guessing wrong again (at most failureFactor more) until
    // it is in force.
    for (let poll = 0; poll < 300 && !(await keycloak.isLockedOut(user.id)); poll += 1) {
      if (poll % 10 === 9 && attempts < 2 * realm.failureFactor) await guessWrong(attempts++);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(await keycloak.isLockedOut(user.id), true, `locked after ${attempts} guesses`);

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
