/**
 * Which access tokens the BFF accepts (docs/api.md "Access tokens" and
 * "Ending sessions"), against the real Keycloak, Redis and identity-profile:
 * only access tokens the web client got for the BFF, and only while their
 * session lives — logout and password reset end them at once on `/api` and
 * close their open sockets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitForMail } from '@raly/infra/test-env';
import type { Socket } from 'socket.io-client';
import type { RunningBff } from '../src/app';
import type { TokenSet } from '@raly/contracts/bff-api';
import { callBff, registerCreator, startTestBff } from './support/bff';
import { sleep } from './support/eventually';
import { startIdentity, type RunningIdentity } from './support/identity';
import { testKeycloak, type TestKeycloak } from './support/keycloak';
import { uniqueSuffix } from './support/records';
import { connectLive, type RecordingSocket } from './support/sockets';
import { testStack } from './support/stack';

/** How soon a socket of an ended session must be closed, in milliseconds. */
const DISCONNECT_BOUND_MS = 2000;

/** Resolves with the disconnect reason, or rejects after `DISCONNECT_BOUND_MS`. */
function disconnected(socket: Socket): Promise<string> {
  if (!socket.connected) return Promise.resolve('already disconnected');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`socket still connected after ${DISCONNECT_BOUND_MS} ms`)),
      DISCONNECT_BOUND_MS,
    );
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/** Waits until the clock enters the next whole second (token `iat` has second precision). */
const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 20);

describe('sessions and token kinds at the BFF', () => {
  let bff: RunningBff;
  let keycloak: TestKeycloak;
  let identity: RunningIdentity;
  const sockets: RecordingSocket[] = [];

  before(async () => {
    const stack = await testStack();
    identity = await startIdentity(stack);
    bff = await startTestBff(stack, { IDENTITY_URL: identity.url });
    keycloak = testKeycloak(stack);
  });

  after(async () => {
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

  describe('logout', () => {
    test("when a user logs out, then that session's access token gets 401 on /api/me and its open socket is closed", async () => {
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
      const closed = disconnected(socket);
      await nextSecond();
      await callBff(bff, 'POST', '/api/auth/forgot-password', { body: { email: user.email } });
      const mail = await waitForMail(user.email);
      const code = new URL(
        /https?:\/\/\S+\/auth\/action\?\S+/.exec(mail.text)![0],
      ).searchParams.get('oobCode');
      const newPassword = `new-${uniqueSuffix()}`;

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
    test('when a user changes the e-mail, then the session that changed it keeps working on /api and its socket stays open', async () => {
      // Arrange
      const user = await registered();
      const tokens = await signIn(user.email, user.password);
      const socket = await live(tokens.accessToken);
      const email = `moved.${uniqueSuffix()}@example.test`;
      keycloak.forgetLater(email);

      // Act
      const answer = await callBff(bff, 'PATCH', '/api/me', {
        token: tokens.accessToken,
        body: { email, currentPassword: user.password },
      });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal((await me(tokens.accessToken)).status, 200);
      await sleep(500);
      assert.equal(socket.connected, true);
    });
  });
});
