import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import {
  createKeycloakUser,
  decodeJwtClaims,
  passwordGrant,
  resolveTestStack,
} from '../src/test-env';

const uniqueEmail = () => `infra-${randomUUID()}@example.com`;

describe('the raly realm', () => {
  test('when a user created by the identity service account logs in with the password grant, then the access token is for raly-bff and names the user', async () => {
    // Arrange
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    const userId = await createKeycloakUser(stack, { email, password: 'secret1' });

    // Act
    const tokens = await passwordGrant(stack, email, 'secret1');

    // Assert
    const claims = decodeJwtClaims(tokens.access_token);
    const audience = ([] as unknown[]).concat(claims.aud);
    assert.ok(audience.includes('raly-bff'), `aud was ${JSON.stringify(claims.aud)}`);
    assert.equal(claims.sub, userId);
    assert.equal(claims.email, email);
    assert.equal(claims.preferred_username, email);
    assert.equal(claims.iss, `${stack.keycloakPublicUrl}/realms/${stack.realm}`);
    assert.equal(Number(claims.exp) - Number(claims.iat), 300);
    assert.ok(tokens.refresh_token, 'a refresh token is issued to the SPA');
  });

  test('when the password is wrong, then the password grant is refused', async () => {
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    await createKeycloakUser(stack, { email, password: 'secret1' });

    await assert.rejects(passwordGrant(stack, email, 'wrong-password'), /invalid_grant/);
  });

  test('when a password is shorter than 6 characters, then Keycloak refuses to create the user', async () => {
    const stack = await resolveTestStack();

    await assert.rejects(
      createKeycloakUser(stack, { email: uniqueEmail(), password: 'short' }),
      /HTTP 400/,
    );
  });

  test('when a second user registers with the same e-mail, then Keycloak answers a conflict', async () => {
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    await createKeycloakUser(stack, { email, password: 'secret1' });

    await assert.rejects(createKeycloakUser(stack, { email, password: 'secret2' }), /HTTP 409/);
  });
});
