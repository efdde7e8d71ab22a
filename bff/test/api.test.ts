/**
 * The BFF's REST API (docs/api.md) against the real Keycloak and Redis:
 * sign-in and sign-out, the callable protocol, and /api/me from the point
 * of view of a visitor and of another user.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { topics } from '@raly/contracts/events';
import type { RunningBff } from '../src/app';
import type { Me, TokenSet } from '@raly/contracts/bff-api';
import {
  aCreatorAccount,
  anEnvelope,
  aUserRecord,
  connectTestKafka,
  eventually,
  sendRaw,
  type TestKafka,
  testKeycloak,
  type TestKeycloak,
  testStack,
  type TestUser,
  uniqueToken,
} from '@raly/test-support';
import { type BffBody, callBff, startTestBff } from '@raly/test-support/bff';
import { type RunningService, startService } from '@raly/test-support/system';

describe('BFF REST API', () => {
  let bff: RunningBff;
  let kafka: TestKafka;
  let keycloak: TestKeycloak;
  let identity: RunningService;

  beforeAll(async () => {
    const stack = await testStack();
    identity = await startService('identity-profile', { stack });
    bff = await startTestBff(stack, { IDENTITY_URL: identity.url });
    kafka = await connectTestKafka(stack.kafkaBrokers);
    keycloak = testKeycloak(stack);
  });

  afterAll(async () => {
    await bff?.stop();
    await identity?.stop();
    await kafka?.close();
    await keycloak?.cleanUp();
  });

  const signIn = async (user: TestUser) =>
    (
      await callBff(bff, 'POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      })
    ).body.data as { accessToken: string; refreshToken: string };

  describe('sign-in and sign-out', () => {
    test('when the password is right, then login answers a token set for that user', async () => {
      // Arrange
      const user = await keycloak.createUser();

      // Act
      const answer = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });

      // Assert
      assert.equal(answer.status, 200);
      const { accessToken, refreshToken, idToken, expiresIn, refreshExpiresIn } = answer.body.data;
      assert.ok(accessToken && refreshToken && idToken);
      assert.ok(expiresIn > 0 && refreshExpiresIn > 0);
      assert.equal(
        JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).sub,
        user.id,
      );
    });

    test("when the password is wrong, then login answers 401 'Incorrect login'", async () => {
      // Arrange
      const user = await keycloak.createUser();

      // Act
      const answer = await callBff(bff, 'POST', '/api/auth/login', {
        body: { email: user.email, password: 'wrong-password' },
      });

      // Assert
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, {
        error: { code: 'unauthenticated', message: messages.incorrectLogin },
      });
    });

    test("when the e-mail is unknown or missing, then login answers 401 'Incorrect login'", async () => {
      const unknown = await callBff(bff, 'POST', '/api/auth/login', {
        body: { email: `nobody.${uniqueToken()}@example.test`, password: 'whatever' },
      });
      const missing = await callBff(bff, 'POST', '/api/auth/login', { body: {} });

      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error.message, messages.incorrectLogin);
      assert.equal(missing.status, 401);
      assert.equal(missing.body.error.message, messages.incorrectLogin);
    });

    test('when a signed-in user logs out, then the session ends and its refresh token stops working', async () => {
      // Arrange
      const user = await keycloak.createUser();
      const tokens = await signIn(user);

      // Act
      const answer = await callBff(bff, 'POST', '/api/auth/logout', {
        token: tokens.accessToken,
        body: { refreshToken: tokens.refreshToken },
      });

      // Assert
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { data: true });
      assert.equal(await keycloak.refreshWorks(tokens.refreshToken), false);
    });

    test('when a visitor calls logout, then it answers 401', async () => {
      const answer = await callBff(bff, 'POST', '/api/auth/logout', {
        body: { refreshToken: 'x' },
      });

      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'unauthenticated');
    });
  });

  describe('bad requests', () => {
    /** Posts raw bytes with exactly these headers (bodies fetch will not send as they are). */
    const postRaw = (path: string, headers: Record<string, string>, body: Buffer) =>
      sendRaw<BffBody<unknown>>(`${bff.url}${path}`, { headers, body });
    const callable = '/api/callable/checkEmailExists';
    const json = (text: string) => Buffer.from(text);
    const small = json(JSON.stringify({ data: { email: 'a@b.test' } }));

    const refusedBodies: Array<[string, Record<string, string>, Buffer, number, string]> = [
      [
        'is over the size limit',
        { 'content-type': 'application/json' },
        json(`{"data":{"email":"${'a'.repeat(150_000)}"}}`),
        413,
        'payload-too-large',
      ],
      [
        'is gzip that inflates past the size limit',
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        gzipSync(json(`{"data":{"email":"${' '.repeat(2_000_000)}"}}`)),
        413,
        'payload-too-large',
      ],
      [
        'is corrupt gzip',
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        json('this is not gzip'),
        400,
        'invalid-argument',
      ],
      [
        'has an unsupported Content-Encoding',
        { 'content-type': 'application/json', 'content-encoding': 'compress' },
        small,
        415,
        'unsupported-media-type',
      ],
      [
        'has an unsupported charset',
        { 'content-type': 'application/json; charset=latin1' },
        small,
        415,
        'unsupported-media-type',
      ],
      [
        'nests 20,000 arrays deep',
        { 'content-type': 'application/json' },
        json(`{"data":{"email":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`),
        400,
        'invalid-argument',
      ],
    ];
    for (const [what, headers, body, status, code] of refusedBodies) {
      test(`when the JSON body ${what}, then the answer is ${status} '${code}', not a 500`, async () => {
        // Act
        const answer = await postRaw(callable, headers, body);

        // Assert
        assert.equal(answer.status, status, JSON.stringify(answer.body));
        assert.equal(answer.body.error.code, code);
        assert.ok(answer.body.error.message.length > 0);
      });
    }

    test('when a body nests 64 levels, then it is still read (only deeper ones are refused)', async () => {
      // Act: 62 arrays inside {data: {email: …}} make 64 levels
      const answer = await postRaw(
        callable,
        { 'content-type': 'application/json' },
        json(`{"data":{"email":${'['.repeat(62)}${']'.repeat(62)}}}`),
      );

      // Assert: the callable's own validation answers, not the parser
      assert.equal(answer.status, 400);
      assert.ok(answer.body.error.fields?.email, JSON.stringify(answer.body));
    });

    test('when a path has a malformed percent-encoding, then the answer is 400, not a 500', async () => {
      // Act
      const answer = await callBff(bff, 'GET', '/api/brands/%ff');

      // Assert
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, 'invalid-argument');
    });

    test('when a JSON body is sent to the image upload, then the answer is 415 at once, without waiting on media', async () => {
      // Arrange
      const user = await keycloak.createUser();
      const { accessToken } = await signIn(user);
      const startedAt = Date.now();

      // Act
      const answer = await postRaw(
        '/api/images/user/cover',
        { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        json('{"file":"x"}'),
      );

      // Assert
      assert.equal(answer.status, 415);
      assert.equal(answer.body.error.code, 'unsupported-media-type');
      assert.ok(Date.now() - startedAt < 5_000, 'answered at once');
    });
  });

  describe('health', () => {
    test('when Redis answers (Kafka is not asked: bff/test/observability.test.ts), then /health/ready answers 200 ok and /health/live is the liveness probe, as in every service', async () => {
      // Act
      const ready = await callBff(bff, 'GET', '/health/ready');
      const live = await callBff(bff, 'GET', '/health/live');

      // Assert
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      assert.deepEqual(ready.body, { status: 'ok' });
      assert.equal(live.status, 200);
      assert.deepEqual(live.body, { status: 'ok' });
    });
  });

  describe('callables', () => {
    test("when the body has no data, then the callable answers 400 with status 'invalid-argument'", async () => {
      const answer = await callBff(bff, 'POST', '/api/callable/checkEmailExists', {
        body: { email: 'a@b.test' },
      });

      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.status, 'invalid-argument');
      assert.equal(answer.body.error.code, 'invalid-argument');
    });

    test("when data lacks the callable's field, then it answers 400 'invalid-argument' naming the field", async () => {
      const answer = await callBff(bff, 'POST', '/api/callable/checkUsernameExists', {
        body: { data: {} },
      });

      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.status, 'invalid-argument');
      assert.ok(answer.body.error.fields?.username);
    });

    test('when the body is not JSON, then the callable answers 400 invalid-argument', async () => {
      const answer = await callBff(bff, 'POST', '/api/callable/checkEmailExists', {
        rawBody: '{"data":',
      });

      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.status, 'invalid-argument');
    });

    test("when the callable does not exist, then it answers 404 'not-found'", async () => {
      const answer = await callBff(bff, 'POST', '/api/callable/deleteEverything', {
        body: { data: {} },
      });

      assert.equal(answer.status, 404);
      assert.equal(answer.body.error.status, 'not-found');
    });

    test("when the bearer token is invalid, then the callable answers 401 'unauthenticated'", async () => {
      const answer = await callBff(bff, 'POST', '/api/callable/checkEmailExists', {
        token: 'not-a-token',
        body: { data: { email: 'a@b.test' } },
      });

      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.status, 'unauthenticated');
    });

    test('when an e-mail has an account, then checkEmailExists answers data true, else false', async () => {
      // Arrange
      const account = aCreatorAccount();
      assert.equal((await callBff(bff, 'POST', '/api/accounts', { body: account })).status, 201);

      // Act
      const known = await callBff(bff, 'POST', '/api/callable/checkEmailExists', {
        body: { data: { email: account.registration.email } },
      });
      const unknown = await callBff(bff, 'POST', '/api/callable/checkEmailExists', {
        body: { data: { email: `nobody.${uniqueToken()}@example.test` } },
      });

      // Assert
      assert.deepEqual(known.body, { data: true });
      assert.deepEqual(unknown.body, { data: false });
    });

    test('when a username is free, then checkUsernameExists answers data false', async () => {
      const answer = await callBff(bff, 'POST', '/api/callable/checkUsernameExists', {
        body: { data: { username: `free${uniqueToken()}` } },
      });

      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { data: false });
    });
  });

  describe('accounts', () => {
    test('when a visitor creates a creator account, then it answers 201 with a token set of the new user', async () => {
      // Arrange
      const account = aCreatorAccount();

      // Act
      const answer = await callBff<TokenSet>(bff, 'POST', '/api/accounts', { body: account });

      // Assert
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const claims = JSON.parse(
        Buffer.from(answer.body.data.accessToken.split('.')[1] ?? '', 'base64url').toString(),
      );
      assert.equal(claims.email, account.registration.email);
      assert.ok(answer.body.data.refreshToken);
    });

    test("when the e-mail is already used, then it forwards identity's 409 email-taken unchanged", async () => {
      // Arrange
      const first = aCreatorAccount();
      await callBff(bff, 'POST', '/api/accounts', { body: first });
      const second = aCreatorAccount({ email: first.registration.email });

      // Act
      const answer = await callBff(bff, 'POST', '/api/accounts', { body: second });

      // Assert
      assert.equal(answer.status, 409);
      assert.deepEqual(answer.body, {
        error: { code: 'email-taken', message: messages.emailTaken },
      });
    });
  });

  describe('/api/me', () => {
    test('when a visitor asks for /api/me, then it answers 401 unauthenticated', async () => {
      const answer = await callBff(bff, 'GET', '/api/me');

      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'unauthenticated');
    });

    test('when the token is forged, then /api/me answers 401', async () => {
      // Arrange
      const user = await keycloak.createUser();
      const [header, payload] = (await signIn(user)).accessToken.split('.');

      // Act
      const answer = await callBff(bff, 'GET', '/api/me', { token: `${header}.${payload}.AAAA` });

      // Assert
      assert.equal(answer.status, 401);
    });

    test('when a new user asks for /api/me, then they get their own record from identity and no brand', async () => {
      // Arrange
      const account = aCreatorAccount();
      const tokens = (await callBff<TokenSet>(bff, 'POST', '/api/accounts', { body: account })).body
        .data;

      // Act
      const answer = await callBff<Me>(bff, 'GET', '/api/me', { token: tokens.accessToken });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.user.email, account.registration.email);
      assert.equal(answer.body.data.user.username, account.registration.username);
      assert.equal(answer.body.data.brand, null);
    });

    test('when a user patches /api/me, then the answer carries the change at a higher version', async () => {
      // Arrange
      const tokens = (
        await callBff<TokenSet>(bff, 'POST', '/api/accounts', { body: aCreatorAccount() })
      ).body.data;
      const before = (await callBff<Me>(bff, 'GET', '/api/me', { token: tokens.accessToken })).body
        .data.user;

      // Act
      const answer = await callBff<Me>(bff, 'PATCH', '/api/me', {
        token: tokens.accessToken,
        body: { notifications: { offers: false, marketing: false } },
      });

      // Assert
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.data.user.notifications, { offers: false, marketing: false });
      assert.ok(answer.body.data.user.version > before.version);
      const reread = await callBff<Me>(bff, 'GET', '/api/me', { token: tokens.accessToken });
      assert.deepEqual(reread.body.data.user.notifications, { offers: false, marketing: false });
    });

    test("when a signed-in user with no user record saves a brand profile, then PATCH /api/brand answers 'There was a problem updating your account. Try again.'", async () => {
      // Arrange: a Keycloak user that identity-profile has never heard of
      const user = await keycloak.createUser();
      const tokens = await signIn(user);

      // Act
      const answer = await callBff(bff, 'PATCH', '/api/brand', {
        token: tokens.accessToken,
        body: {
          username: `nouser${uniqueToken()}`,
          company: 'No Record Inc',
          websiteUrl: 'https://no-record.example',
          socials: {},
        },
      });

      // Assert
      assert.equal(answer.status, 500, JSON.stringify(answer.body));
      assert.deepEqual(answer.body, {
        error: { code: 'internal', message: messages.updateAccountFailed },
      });
    });

    test("when user B asks for /api/me, then B gets B's record and nothing of A's", async () => {
      // Arrange
      const [userA, userB] = await Promise.all([keycloak.createUser(), keycloak.createUser()]);
      const recordA = aUserRecord({
        id: userA.id,
        email: userA.email,
        firstName: `Alice${uniqueToken()}`,
      });
      const recordB = aUserRecord({
        id: userB.id,
        email: userB.email,
        firstName: `Bob${uniqueToken()}`,
      });
      await kafka.produce(topics.identityUser, userA.id, JSON.stringify(anEnvelope(recordA)));
      await kafka.produce(topics.identityUser, userB.id, JSON.stringify(anEnvelope(recordB)));
      const tokenB = (await signIn(userB)).accessToken;

      // Act
      const answer = await eventually('B to read their record', async () => {
        const attempt = await callBff(bff, 'GET', '/api/me', { token: tokenB });
        return attempt.status === 200 ? attempt : undefined;
      });

      // Assert
      assert.deepEqual(answer.body, { data: { user: recordB, brand: null } });
      const text = JSON.stringify(answer.body);
      assert.ok(
        !text.includes(userA.id) &&
          !text.includes(userA.email) &&
          !text.includes(recordA.firstName),
      );
    });
  });
});
