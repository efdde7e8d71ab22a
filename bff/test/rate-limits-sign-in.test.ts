/**
 * Sign-in's device cookies and password checks under rate limits
 * (docs/api.md "Rate limits"), and Keycloak's brute-force detection, the
 * backstop for direct calls to Keycloak; low limits through the
 * configuration (./support/rate-limits).
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
  type TestStack,
} from '@raly/test-support';
import { callBff } from '@raly/test-support/bff';
import {
  aClientAddress,
  anEmail,
  postThrough,
  type RateLimitedBffs,
  signInForDeviceCookie,
  startRateLimitedBffs,
  statuses,
} from './support/rate-limits';

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

let bff: RunningBff;
let keycloak: TestKeycloak;
let stack: TestStack;
let bffs: RateLimitedBffs | undefined;

beforeAll(async () => {
  bffs = await startRateLimitedBffs();
  ({ bff, keycloak, stack } = bffs);
});

afterAll(async () => {
  await bffs?.stop();
});

const post = postThrough(() => bff);

describe('sign-in device cookies and password checks', () => {
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
    const cookie = await signInForDeviceCookie(bff, owner, aClientAddress());
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
    const attackerCookie = await signInForDeviceCookie(bff, attacker, aClientAddress());
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
    const cookie = await signInForDeviceCookie(bff, user, address);
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
