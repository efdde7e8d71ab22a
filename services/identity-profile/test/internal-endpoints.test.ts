/**
 * Registration, reset links and the uniqueness queries are internal
 * endpoints (docs/api.md "Internal endpoints"): only the BFF, with its own
 * access token (client credentials of raly-bff-service, meant for
 * raly-identity-service), may call them; no or a bad token gets 401, another
 * service's valid token 403. The username registry is brand's alone.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import { call, creatorRegistration, registeredCreator, useIdentityService } from './support';
import { serviceTokenOf, uniqueToken } from '@raly/test-support';

const harness = useIdentityService();

const endpoints: [string, () => object][] = [
  ['/accounts', () => ({ isBrand: false, registration: creatorRegistration() })],
  ['/password-resets', () => ({ email: `nobody-${uniqueToken()}@raly.test` })],
  ['/password-resets/confirm', () => ({ actionCode: uniqueToken(), password: 'pw-123456' })],
  ['/queries/check-email-exists', () => ({ email: `nobody-${uniqueToken()}@raly.test` })],
  ['/queries/check-username-exists', () => ({ username: `u${uniqueToken(8)}` })],
];

/** POST without the caller's `call` helper, so the test chooses the service token header. */
async function postWith(path: string, body: object, headers: Record<string, string>) {
  const response = await fetch(`${harness.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
}

describe('internal endpoints of identity-profile', () => {
  for (const [path, body] of endpoints) {
    test(`when POST ${path} comes without the service token, then it answers 401 unauthenticated`, async () => {
      // Act
      const answer = await postWith(path, body(), {});

      // Assert
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error?.code, 'unauthenticated');
    });

    test(`when POST ${path} comes with a wrong service token, then it answers 401`, async () => {
      // Act
      const answer = await postWith(path, body(), {
        [INTERNAL_TOKEN_HEADER]: `${await harness.serviceToken()}x`,
      });

      // Assert
      assert.equal(answer.status, 401);
    });

    test(`when POST ${path} comes with brand's service token, then it answers 403 permission-denied`, async () => {
      // Act
      const answer = await postWith(path, body(), {
        [INTERNAL_TOKEN_HEADER]: await serviceTokenOf(harness.stack, 'brand')(),
      });

      // Assert
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error?.code, 'permission-denied');
    });
  }

  test("when a service token meant for another service (media's, for brand) comes, then it answers 401", async () => {
    // Act
    const answer = await postWith(
      '/queries/check-email-exists',
      { email: 'a@raly.test' },
      {
        [INTERNAL_TOKEN_HEADER]: await serviceTokenOf(harness.stack, 'media')(),
      },
    );

    // Assert
    assert.equal(answer.status, 401);
  });

  test("when a user's access token comes as the service token, then it answers 401", async () => {
    // Arrange
    const user = await registeredCreator(harness);

    // Act
    const answer = await postWith(
      '/queries/check-email-exists',
      { email: 'a@raly.test' },
      {
        [INTERNAL_TOKEN_HEADER]: user.accessToken,
      },
    );

    // Assert
    assert.equal(answer.status, 401);
  });

  test("when the BFF's token claims a username, then it answers 403; brand's token claims it", async () => {
    // Arrange
    const claim = {
      username: `u${uniqueToken(8)}`,
      ownerType: 'brand',
      ownerId: `brand-${uniqueToken(8)}`,
    };

    // Act
    const asBff = await postWith('/usernames/claim', claim, {
      [INTERNAL_TOKEN_HEADER]: await harness.serviceToken(),
    });
    const asBrand = await postWith('/usernames/claim', claim, {
      [INTERNAL_TOKEN_HEADER]: await serviceTokenOf(harness.stack, 'brand')(),
    });

    // Assert
    assert.equal(asBff.status, 403);
    assert.equal(asBrand.status, 200);
  });

  test('when the e-mail query comes with the service token, then it answers', async () => {
    // Act
    const answer = await call(harness, 'POST', '/queries/check-email-exists', {
      email: `nobody-${uniqueToken()}@raly.test`,
    });

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data, false);
  });
});
