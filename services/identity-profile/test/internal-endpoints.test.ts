/**
 * Registration, reset links and the uniqueness queries are internal
 * endpoints (docs/api.md "Internal endpoints"): only the BFF, with the
 * service token, may call them; everyone else gets 401.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import { call, creatorRegistration, useIdentityService } from './support';
import { uniqueToken } from '@raly/test-support';

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
        [INTERNAL_TOKEN_HEADER]: `wrong-${harness.serviceToken}`,
      });

      // Assert
      assert.equal(answer.status, 401);
    });
  }

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
