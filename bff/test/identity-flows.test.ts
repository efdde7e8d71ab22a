/**
 * The account and identity flows of the BFF against the real
 * identity-profile, Keycloak, Kafka, Redis and SMTP catcher: password reset
 * through the e-mailed link, the Verify Password check, e-mail change with
 * the current password, onboarding steps, interests and lastLogin.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { RunningBff } from '../src/app';
import type { Me, TokenSet } from '@raly/contracts/bff-api';
import { connectLive, type RecordingSocket } from './support/sockets';
import {
  eventually,
  testKeycloak,
  type TestKeycloak,
  testStack,
  uniqueToken,
  waitForMail,
} from '@raly/test-support';
import { callBff, registerCreator, startTestBff } from '@raly/test-support/bff';
import { type RunningService, startService, testWebUrl } from '@raly/test-support/system';

describe('account and identity flows through the BFF', () => {
  let bff: RunningBff;
  let keycloak: TestKeycloak;
  let identity: RunningService;
  const sockets: RecordingSocket[] = [];

  beforeAll(async () => {
    const stack = await testStack();
    identity = await startService('identity-profile', { stack });
    bff = await startTestBff(stack, { IDENTITY_URL: identity.url });
    keycloak = testKeycloak(stack);
  });

  afterAll(async () => {
    for (const { socket } of sockets) socket.close();
    await bff?.stop();
    await identity?.stop();
    await keycloak?.cleanUp();
  });

  const registered = () => registerCreator(bff, keycloak);

  const login = (email: string, password: string) =>
    callBff<TokenSet>(bff, 'POST', '/api/auth/login', { body: { email, password } });

  /** Asks for the reset link and follows it: the oobCode of the mailed link. */
  async function mailedResetCode(email: string): Promise<string> {
    const asked = await callBff(bff, 'POST', '/api/auth/forgot-password', { body: { email } });
    assert.deepEqual(asked.body, { data: true });
    const mail = await waitForMail(email);
    const link = new URL(/https?:\/\/\S+\/auth\/action\?\S+/.exec(mail.text)![0]);
    assert.equal(link.origin, testWebUrl);
    assert.equal(link.searchParams.get('mode'), 'resetPassword');
    assert.ok(link.searchParams.get('apiKey'));
    return link.searchParams.get('oobCode')!;
  }

  describe('forgot and reset password', () => {
    test("when the e-mail has no account, then forgot-password answers 404 'There is no account associated with this email'", async () => {
      const answer = await callBff(bff, 'POST', '/api/auth/forgot-password', {
        body: { email: `nobody.${uniqueToken()}@example.test` },
      });

      assert.equal(answer.status, 404);
      assert.equal(answer.body.error.message, messages.emailUnknown);
    });

    test('when the mailed link is followed, then the new password signs in, the old one does not, and the earlier session is dead', async () => {
      // Arrange
      const user = await registered();
      const code = await mailedResetCode(user.email);
      const newPassword = `new-${uniqueToken()}`;

      // Act
      const answer = await callBff(bff, 'POST', '/api/auth/reset-password', {
        body: { actionCode: code, password: newPassword },
      });

      // Assert
      assert.deepEqual(answer.body, { data: true });
      assert.equal((await login(user.email, user.password)).status, 401);
      assert.equal((await login(user.email, newPassword)).status, 200);
      assert.equal(await keycloak.refreshWorks(user.tokens.refreshToken), false);
    });

    test("when the link is used again, then reset-password answers 400 'There was a problem with your request.'", async () => {
      // Arrange
      const user = await registered();
      const code = await mailedResetCode(user.email);
      await callBff(bff, 'POST', '/api/auth/reset-password', {
        body: { actionCode: code, password: `one-${uniqueToken()}` },
      });

      // Act
      const again = await callBff(bff, 'POST', '/api/auth/reset-password', {
        body: { actionCode: code, password: `two-${uniqueToken()}` },
      });

      // Assert
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, {
        error: { code: 'invalid-argument', message: messages.requestProblem },
      });
    });
  });

  describe('verify password', () => {
    test('when the password is right, then verify-password answers true', async () => {
      const user = await registered();

      const answer = await callBff(bff, 'POST', '/api/auth/verify-password', {
        token: user.tokens.accessToken,
        body: { password: user.password },
      });

      assert.deepEqual(answer.body, { data: true });
    });

    test("when the password is wrong, then verify-password answers 401 'Incorrect password'", async () => {
      const user = await registered();

      const answer = await callBff(bff, 'POST', '/api/auth/verify-password', {
        token: user.tokens.accessToken,
        body: { password: 'not-my-password' },
      });

      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, {
        error: { code: 'unauthenticated', message: messages.incorrectPassword },
      });
    });

    test("when the password is empty, then verify-password answers 400 'Please enter a password.'", async () => {
      const user = await registered();

      const answer = await callBff(bff, 'POST', '/api/auth/verify-password', {
        token: user.tokens.accessToken,
        body: { password: '' },
      });

      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.message, messages.verifyPasswordRequired);
    });

    test('when a visitor calls verify-password, then it answers 401', async () => {
      const answer = await callBff(bff, 'POST', '/api/auth/verify-password', {
        body: { password: 'x' },
      });

      assert.equal(answer.status, 401);
    });
  });

  describe('changing the e-mail (PATCH /api/me)', () => {
    test('when the current password comes with it, then the e-mail changes and the new e-mail signs in', async () => {
      // Arrange
      const user = await registered();
      const email = `moved.${uniqueToken()}@example.test`;
      keycloak.forgetLater(email);

      // Act
      const answer = await callBff<Me>(bff, 'PATCH', '/api/me', {
        token: user.tokens.accessToken,
        body: { email, currentPassword: user.password },
      });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.user.email, email);
      assert.equal((await login(email, user.password)).status, 200);
      assert.equal((await login(user.email, user.password)).status, 401);
    });

    test("when the current password is missing, then it answers 400 'Please enter a password.' and nothing changes", async () => {
      const user = await registered();

      const answer = await callBff<Me>(bff, 'PATCH', '/api/me', {
        token: user.tokens.accessToken,
        body: { email: `moved.${uniqueToken()}@example.test` },
      });

      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.message, messages.verifyPasswordRequired);
      assert.equal((await login(user.email, user.password)).status, 200);
    });

    test("when the current password is wrong, then it answers 401 'Incorrect password' and the e-mail stays", async () => {
      const user = await registered();

      const answer = await callBff<Me>(bff, 'PATCH', '/api/me', {
        token: user.tokens.accessToken,
        body: { email: `moved.${uniqueToken()}@example.test`, currentPassword: 'wrong-one' },
      });

      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.message, messages.incorrectPassword);
      const me = await callBff<Me>(bff, 'GET', '/api/me', { token: user.tokens.accessToken });
      assert.equal(me.body.data.user.email, user.email);
    });

    test('when the e-mail is sent unchanged, then no password is needed', async () => {
      const user = await registered();

      const answer = await callBff<Me>(bff, 'PATCH', '/api/me', {
        token: user.tokens.accessToken,
        body: { email: user.email.toUpperCase(), phoneNumber: '+1 555 0102' },
      });

      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.user.phoneNumber, '+1 555 0102');
    });
  });

  describe('onboarding and interests', () => {
    test("when a creator completes the terms step, then the answer and the user's open tab both show it", async () => {
      // Arrange
      const user = await registered();
      const tab = await connectLive(bff, user.tokens.accessToken);
      sockets.push(tab);

      // Act
      const answer = await callBff<Me>(bff, 'POST', '/api/me/onboarding', {
        token: user.tokens.accessToken,
        body: { step: 'terms' },
      });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.user.onboarding.terms, true);
      await eventually(
        'the tab to receive the terms flag',
        async () =>
          tab.received.some(
            ([event, record]) => event === 'user.updated' && record.onboarding.terms === true,
          ) || undefined,
      );
    });

    test('when a creator sends the brand step, then it answers 400', async () => {
      const user = await registered();

      const answer = await callBff<Me>(bff, 'POST', '/api/me/onboarding', {
        token: user.tokens.accessToken,
        body: { step: 'brand' },
      });

      assert.equal(answer.status, 400);
    });

    test('when a creator saves interests, then they are stored and the interests flag is set', async () => {
      const user = await registered();

      const answer = await callBff<Me>(bff, 'PUT', '/api/me/interests', {
        token: user.tokens.accessToken,
        body: { interests: ['Crypto', 'NFTs'] },
      });

      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.data.user.interests, ['Crypto', 'NFTs']);
      const { onboarding } = answer.body.data.user;
      assert.ok('interests' in onboarding, 'a creator onboarding');
      assert.equal(onboarding.interests, true);
    });

    test("when no interest is chosen, then it answers 400 'You must select at least one interest'", async () => {
      const user = await registered();

      const answer = await callBff<Me>(bff, 'PUT', '/api/me/interests', {
        token: user.tokens.accessToken,
        body: { interests: [] },
      });

      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.message, messages.interestsRequired);
    });
  });

  describe('lastLogin', () => {
    test('when a user signs in, then their record carries the time of that sign-in', async () => {
      // Arrange
      const user = await registered();
      const before = Date.now();

      // Act
      const signedIn = await login(user.email, user.password);

      // Assert
      assert.equal(signedIn.status, 200);
      const lastLogin = await eventually('lastLogin in /api/me', async () => {
        const me = await callBff<Me>(bff, 'GET', '/api/me', {
          token: signedIn.body.data.accessToken,
        });
        return me.body.data.user.lastLogin ?? undefined;
      });
      assert.ok(Date.parse(lastLogin) >= before - 1000);
    });
  });
});
