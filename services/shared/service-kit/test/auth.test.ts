/**
 * The access-token verifier (src/auth.ts): its realm-key cache and its
 * claim checks, against a stand-in JWKS server (`startSigningRealm`). The
 * same rules against the real Keycloak are tested in bff and the services.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { createAccessTokenVerifier, type KeycloakSettings } from '../src/auth';
import { AppError } from '../src/errors';
import { startSigningRealm, type SigningRealm } from '@raly/test-stack/signing-realm';
import { sleep } from '@raly/test-stack';

describe('createAccessTokenVerifier', () => {
  let realm: SigningRealm;
  let settings: KeycloakSettings;

  beforeAll(async () => {
    realm = await startSigningRealm();
    settings = {
      url: realm.url,
      publicUrl: realm.url,
      realm: 'raly',
      audience: 'raly-bff',
      authorizedParty: 'raly-bff-login',
    };
  });

  afterAll(async () => {
    await realm.close();
  });

  const refusedWith = (code: string) => (error: unknown) =>
    error instanceof AppError && error.code === code;

  test('when many tokens signed with the same key are verified, then the realm keys are fetched once', async () => {
    // Arrange
    const verify = createAccessTokenVerifier(settings);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => realm.sign()));
    const fetchesBefore = realm.jwksFetches();

    // Act
    const callers = await Promise.all(tokens.map((token) => verify(token)));

    // Assert
    assert.equal(callers.length, 20);
    assert.equal(realm.jwksFetches() - fetchesBefore, 1);
  });

  test('when a token names a key the cache does not hold, then the realm keys are fetched again and the token passes', async () => {
    // Arrange
    const verify = createAccessTokenVerifier(settings, { jwksCooldownMs: 0 });
    await verify(await realm.sign());
    await realm.rotate();
    const fetchesBefore = realm.jwksFetches();

    // Act
    const caller = await verify(await realm.sign({ sub: 'rotated-user' }));

    // Assert
    assert.equal(caller.userId, 'rotated-user');
    assert.equal(realm.jwksFetches() - fetchesBefore, 1);
  });

  test('when unknown keys arrive within the cooldown, then the realm keys are not fetched again and the tokens are refused', async () => {
    // Arrange
    const verify = createAccessTokenVerifier(settings, { jwksCooldownMs: 60_000 });
    await verify(await realm.sign());
    await realm.rotate();
    const fetchesBefore = realm.jwksFetches();

    // Act
    for (let attempt = 0; attempt < 5; attempt += 1)
      await assert.rejects(verify(await realm.sign()), refusedWith('unauthenticated'));

    // Assert
    assert.equal(realm.jwksFetches(), fetchesBefore);
  });

  test('when a token passes, then the caller carries sub, sid, email, iat, expiry, the raw token and the client it was issued to', async () => {
    // Arrange
    const verify = createAccessTokenVerifier(settings);
    const token = await realm.sign({
      sub: 'user-1',
      sid: 'session-1',
      email: 'a@example.com',
      iat: 1_700_000_000,
      exp: 4_000_000_000,
    });

    // Act
    const caller = await verify(token);

    // Assert
    assert.deepEqual(caller, {
      userId: 'user-1',
      sessionId: 'session-1',
      email: 'a@example.com',
      issuedAtSec: 1_700_000_000,
      expiresAtMs: 4_000_000_000_000,
      accessToken: token,
      clientId: 'raly-bff-login',
    });
  });

  for (const [what, claims] of [
    ['expired', { exp: Math.floor(Date.now() / 1000) - 1 }],
    ['from another issuer', { iss: 'http://elsewhere/realms/raly' }],
    ['an ID token', { typ: 'ID' }],
    ['a refresh token', { typ: 'Refresh' }],
    ['meant for another audience', { aud: 'account' }],
    ['issued to another client', { azp: 'raly-identity' }],
    ['without a subject', { sub: '' }],
  ] as const) {
    test(`when the token is ${what}, then it is refused with 401 unauthenticated`, async () => {
      // Arrange
      const verify = createAccessTokenVerifier(settings);

      // Act + Assert
      await assert.rejects(verify(await realm.sign(claims)), refusedWith('unauthenticated'));
    });
  }

  test('when the signature does not match, then the token is refused with 401 unauthenticated', async () => {
    // Arrange
    const verify = createAccessTokenVerifier(settings);
    const [header, , signature] = (await realm.sign()).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'forged' })).toString('base64url');

    // Act + Assert
    await assert.rejects(
      verify(`${header}.${payload}.${signature}`),
      refusedWith('unauthenticated'),
    );
  });

  test('when the revocation hook says the session ended, then the token is refused with 401; when it fails, with 503', async () => {
    // Arrange
    const token = await realm.sign();
    const ended = createAccessTokenVerifier(settings, { isRevoked: async () => true });
    const broken = createAccessTokenVerifier(settings, {
      isRevoked: () => Promise.reject(new Error('Redis down')),
    });

    // Act + Assert
    await assert.rejects(ended(token), refusedWith('unauthenticated'));
    await assert.rejects(broken(token), refusedWith('unavailable'));
  });

  describe('alongside (a read while the revocation hook runs)', () => {
    test('when the token is in force, then the read runs with the verified caller at the same time as the hook and its value is handed out', async () => {
      // Arrange
      const order: string[] = [];
      const verify = createAccessTokenVerifier(settings, {
        isRevoked: async () => {
          order.push('hook started');
          await sleep(20);
          order.push('hook done');
          return false;
        },
      });
      const token = await realm.sign({ sub: 'user-a' });

      // Act
      const { caller, value } = await verify.alongside(token, async (verified) => {
        order.push('read started');
        return `record of ${verified.userId}`;
      });

      // Assert
      assert.equal(caller.userId, 'user-a');
      assert.equal(value, 'record of user-a');
      assert.deepEqual(order, ['read started', 'hook started', 'hook done']);
    });

    test('when the session ended, then the read is not handed out: 401 (503 when the hook fails), even when the read failed', async () => {
      // Arrange
      const token = await realm.sign();
      const ended = createAccessTokenVerifier(settings, { isRevoked: async () => true });
      const broken = createAccessTokenVerifier(settings, {
        isRevoked: () => Promise.reject(new Error('Redis down')),
      });
      let reads = 0;
      const read = async () => {
        reads += 1;
        return 'secret';
      };

      // Act + Assert
      await assert.rejects(ended.alongside(token, read), refusedWith('unauthenticated'));
      await assert.rejects(broken.alongside(token, read), refusedWith('unavailable'));
      await assert.rejects(
        ended.alongside(token, () => Promise.reject(new Error('read failed'))),
        refusedWith('unauthenticated'),
      );
      assert.equal(reads, 2);
    });

    test('when the token is forged, then nothing is read', async () => {
      // Arrange
      const verify = createAccessTokenVerifier(settings);
      let reads = 0;

      // Act + Assert
      await assert.rejects(
        verify.alongside('a.b.c', async () => {
          reads += 1;
        }),
        refusedWith('unauthenticated'),
      );
      assert.equal(reads, 0);
    });
  });

  describe('verified tokens cache', () => {
    test('when the same token is verified again, then the cached caller answers and the revocation hook still runs each time', async () => {
      // Arrange
      let hookCalls = 0;
      const verify = createAccessTokenVerifier(settings, {
        isRevoked: async () => {
          hookCalls += 1;
          return false;
        },
      });
      const token = await realm.sign();

      // Act
      const first = await verify(token);
      const second = await verify(token);

      // Assert
      assert.equal(second, first);
      assert.equal(hookCalls, 2);
    });

    test("when a cached token's session ends, then the token is refused with 401 at once", async () => {
      // Arrange
      let ended = false;
      const verify = createAccessTokenVerifier(settings, { isRevoked: async () => ended });
      const token = await realm.sign();
      await verify(token);

      // Act
      ended = true;

      // Assert
      await assert.rejects(verify(token), refusedWith('unauthenticated'));
    });

    test('when a cached token expires, then it is refused with 401', async () => {
      // Arrange
      const verify = createAccessTokenVerifier(settings);
      const expiresAtSec = Math.floor(Date.now() / 1000) + 1;
      const token = await realm.sign({ exp: expiresAtSec });
      await verify(token);

      // Act
      await sleep(expiresAtSec * 1000 - Date.now() + 50);

      // Assert
      await assert.rejects(verify(token), refusedWith('unauthenticated'));
    });

    test('when more tokens than the bound are verified, then the least recently used is checked again', async () => {
      // Arrange
      const verify = createAccessTokenVerifier(settings, { verifiedTokensMax: 2 });
      const [oldest, middle, newest] = await Promise.all([
        realm.sign(),
        realm.sign(),
        realm.sign(),
      ]);
      const oldestCaller = await verify(oldest!);
      const middleCaller = await verify(middle!);

      // Act
      await verify(newest!);

      // Assert
      assert.notEqual(await verify(oldest!), oldestCaller);
      assert.notEqual(await verify(middle!), middleCaller);
    });
  });
});
