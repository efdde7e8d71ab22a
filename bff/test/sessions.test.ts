/**
 * Which access tokens the BFF accepts (docs/api.md "Access tokens" and
 * "Ending sessions"), against the real Keycloak, Redis and identity-profile:
 * only access tokens the BFF's sign-in client got for the BFF, and only while
 * their session lives — logout, password reset and an e-mail change (the
 * user's other sessions) end them at once on `/api`, close their open
 * sockets and stop their refresh through the BFF (POST /api/auth/refresh).
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { RunningBff } from '../src/app';
import type { TokenSet } from '@raly/contracts/bff-api';
import { connectLive, disconnectedWithin, type RecordingSocket } from './support/sockets';
import {
  sleep,
  testKeycloak,
  type TestKeycloak,
  testStack,
  uniqueToken,
  waitForMail,
} from '@raly/test-support';
import { callBff, registerCreator, startTestBff } from '@raly/test-support/bff';
import { type RunningService, startService } from '@raly/test-support/system';

/** How soon a socket of an ended session must be closed, in milliseconds. */
const DISCONNECT_BOUND_MS = 2000;

/** Resolves with the disconnect reason, or rejects after `DISCONNECT_BOUND_MS`. */
const disconnected = (socket: Socket) => disconnectedWithin(socket, DISCONNECT_BOUND_MS);

/** Waits until the clock enters the next whole second (token `iat` has second precision). */
const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 20);

describe('sessions and token kinds at the BFF', () => {
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

  /** A new session through the BFF's login. */
  async function signIn(email: string, password: string): Promise<TokenSet> {
    const answer = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
      body: { email, password },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data;
  }

  async function live(token: string): Promise<Socket> {
    const recording = await connectLive(bff, token);
    sockets.push(recording);
    return recording.socket;
  }

  const me = (token: string) => callBff(bff, 'GET', '/api/me', { token });
  const refresh = (body: unknown) => callBff<TokenSet>(bff, 'POST', '/api/auth/refresh', { body });

  describe('token kinds', () => {
    test("when the user's ID token or raly-identity's service-account token is presented, then /api answers 401 and the socket handshake is refused", async () => {
      // Arrange
      const user = await registered();
      const tokens = await signIn(user.email, user.password);
      const serviceToken = await keycloak.serviceAccountToken();
      assert.equal((await me(tokens.accessToken)).status, 200);

      for (const token of [tokens.idToken, serviceToken]) {
        // Act
        const answer = await me(token);
        const handshake = connectLive(bff, token);

        // Assert
        assert.equal(answer.status, 401);
        assert.equal(answer.body.error.code, 'unauthenticated');
        await assert.rejects(handshake, /unauthenticated/);
      }
    });
  });

  describe('refresh (POST /api/auth/refresh, docs/adr/0009)', () => {
    test("when a signed-in user refreshes, then the BFF answers a new token set that works on /api; a second use of the spent refresh token is refused and, by Keycloak's reuse detection, ends the session", async () => {
      // Arrange
      const user = await registered();
      const tokens = await signIn(user.email, user.password);

      // Act
      const answer = await refresh({ refreshToken: tokens.refreshToken });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const renewed = answer.body.data;
      assert.notEqual(renewed.refreshToken, tokens.refreshToken, 'rotated');
      assert.ok(renewed.idToken && renewed.expiresIn > 0 && renewed.refreshExpiresIn > 0);
      assert.equal((await me(renewed.accessToken)).status, 200);
      const again = await refresh({ refreshToken: tokens.refreshToken });
      assert.equal(again.status, 401);
      assert.equal(again.body.error.code, 'unauthenticated');
      // refreshTokenMaxReuse 0: Keycloak takes a reused refresh token as stolen and ends the
      // session's client session, so tabs must never refresh with the same token (web/src/lib/session.ts).
      assert.equal((await refresh({ refreshToken: renewed.refreshToken })).status, 401);
    });

    test('when the session was logged out, then its refresh token is refused with 401', async () => {
      // Arrange
      const user = await registered();
      const tokens = await signIn(user.email, user.password);
      const logout = await callBff(bff, 'POST', '/api/auth/logout', {
        token: tokens.accessToken,
        body: { refreshToken: tokens.refreshToken },
      });
      assert.equal(logout.status, 200);

      // Act
      const answer = await refresh({ refreshToken: tokens.refreshToken });

      // Assert
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'unauthenticated');
    });

    test('when the body is not a refresh token, then the BFF answers 400 or 401 with an error code, never 500', async () => {
      const user = await registered();
      const tokens = await signIn(user.email, user.password);
      const cases: [unknown, number][] = [
        [undefined, 400],
        [{}, 400],
        [{ refreshToken: '' }, 400],
        [{ refreshToken: 42 }, 400],
        [{ refreshToken: ['a'] }, 400],
        [{ refreshToken: 'not-a-jwt' }, 400],
        [{ refreshToken: tokens.accessToken.replace(/\.[^.]*$/, '.forged') }, 401],
        [{ refreshToken: tokens.idToken }, 401],
        [{ refreshToken: tokens.accessToken }, 401],
      ];
      for (const [body, status] of cases) {
        const answer = await refresh(body);
        assert.equal(answer.status, status, JSON.stringify(body));
        assert.equal(
          answer.body.error.code,
          status === 400 ? 'invalid-argument' : 'unauthenticated',
        );
      }
      assert.equal((await refresh({ refreshToken: tokens.refreshToken })).status, 200);
    });
  });

  describe('logout', () => {
    test("when a user logs out, then that session's access token, verified and cached by an earlier request, gets 401 on /api/me and its open socket is closed", async () => {
      // Arrange
      const user = await registered();
      const tokens = await signIn(user.email, user.password);
      const socket = await live(tokens.accessToken);
      const closed = disconnected(socket);
      assert.equal((await me(tokens.accessToken)).status, 200);

      // Act
      const answer = await callBff(bff, 'POST', '/api/auth/logout', {
        token: tokens.accessToken,
        body: { refreshToken: tokens.refreshToken },
      });

      // Assert
      assert.equal(answer.status, 200);
      assert.equal(await closed, 'io server disconnect');
      const after = await me(tokens.accessToken);
      assert.equal(after.status, 401);
      assert.equal(after.body.error.code, 'unauthenticated');
      await assert.rejects(connectLive(bff, tokens.accessToken), /unauthenticated/);
    });

    test("when one session logs out, then the user's other session keeps working", async () => {
      // Arrange
      const user = await registered();
      const leaving = await signIn(user.email, user.password);
      const staying = await signIn(user.email, user.password);
      const socket = await live(staying.accessToken);

      // Act
      await callBff(bff, 'POST', '/api/auth/logout', {
        token: leaving.accessToken,
        body: { refreshToken: leaving.refreshToken },
      });

      // Assert
      assert.equal((await me(staying.accessToken)).status, 200);
      await sleep(500);
      assert.equal(socket.connected, true);
    });
  });

  describe('password reset', () => {
    test('when the password is reset through the mailed link, then the earlier session gets 401 and its socket closes, and a sign-in with the new password works', async () => {
      // Arrange
      const user = await registered();
      const earlier = await signIn(user.email, user.password);
      const socket = await live(earlier.accessToken);
      await nextSecond();
      await callBff(bff, 'POST', '/api/auth/forgot-password', { body: { email: user.email } });
      const mail = await waitForMail(user.email);
      const code = new URL(
        /https?:\/\/\S+\/auth\/action\?\S+/.exec(mail.text)![0],
      ).searchParams.get('oobCode');
      const newPassword = `new-${uniqueToken()}`;
      // The bound counts from the reset, not from the mail's delivery.
      const closed = disconnected(socket);

      // Act
      const answer = await callBff(bff, 'POST', '/api/auth/reset-password', {
        body: { actionCode: code, password: newPassword },
      });

      // Assert
      assert.deepEqual(answer.body, { data: true });
      assert.equal(await closed, 'io server disconnect');
      assert.equal((await me(earlier.accessToken)).status, 401);
      await assert.rejects(connectLive(bff, earlier.accessToken), /unauthenticated/);
      const fresh = await signIn(user.email, newPassword);
      assert.equal((await me(fresh.accessToken)).status, 200);
      await live(fresh.accessToken);
    });
  });

  describe('e-mail change', () => {
    test("when session A changes the e-mail, then the user's other session B gets 401, its socket closes and its refresh token is refused, while A keeps working on /api, on its socket and at refresh", async () => {
      // Arrange
      const user = await registered();
      const changing = await signIn(user.email, user.password);
      const other = await signIn(user.email, user.password);
      const changingSocket = await live(changing.accessToken);
      const otherSocket = await live(other.accessToken);
      const otherClosed = disconnected(otherSocket);
      const email = `moved.${uniqueToken()}@example.test`;
      keycloak.forgetLater(email);
      // The other session's token must be older than the change (iat has second precision).
      await nextSecond();

      // Act
      const answer = await callBff(bff, 'PATCH', '/api/me', {
        token: changing.accessToken,
        body: { email, currentPassword: user.password },
      });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(await otherClosed, 'io server disconnect');
      const refused = await me(other.accessToken);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error.code, 'unauthenticated');
      await assert.rejects(connectLive(bff, other.accessToken), /unauthenticated/);
      assert.equal((await refresh({ refreshToken: other.refreshToken })).status, 401);
      assert.equal(await keycloak.refreshWorks(other.refreshToken), false);
      assert.equal((await me(changing.accessToken)).status, 200);
      assert.equal(changingSocket.connected, true);
      const renewed = await refresh({ refreshToken: changing.refreshToken });
      assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
      assert.equal((await me(renewed.body.data.accessToken)).status, 200);
    });

    test('when a user saves the account form without changing the e-mail, then their other session keeps working', async () => {
      // Arrange
      const user = await registered();
      const changing = await signIn(user.email, user.password);
      const other = await signIn(user.email, user.password);
      const otherSocket = await live(other.accessToken);
      await nextSecond();

      // Act
      const answer = await callBff(bff, 'PATCH', '/api/me', {
        token: changing.accessToken,
        body: { email: user.email, phoneNumber: '5550100' },
      });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal((await me(other.accessToken)).status, 200);
      await sleep(500);
      assert.equal(otherSocket.connected, true);
      assert.equal(await keycloak.refreshWorks(other.refreshToken), true);
    });
  });
});
