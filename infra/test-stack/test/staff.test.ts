import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  consoleClientId,
  consoleSignIn,
  createStaffUser,
  decodeJwtClaims,
  deleteStaffUser,
  ensureStaffRealm,
  testStack,
  type StaffUser,
  type TestStack,
} from '../src/index';

describe('staff in the realm', () => {
  let stack: TestStack;
  const users: StaffUser[] = [];

  beforeAll(async () => {
    stack = await testStack();
    await ensureStaffRealm(stack);
  });

  afterAll(async () => {
    await Promise.all(users.map((user) => deleteStaffUser(stack, user)));
  });

  test('when the staff part is applied again, then nothing changes and nothing fails', async () => {
    await ensureStaffRealm(stack, { redirectUris: ['http://localhost:4719/console/*'] });
    await ensureStaffRealm(stack, { redirectUris: ['http://localhost:4719/console/*'] });
  });

  test('when a moderator signs in to the console twice, then TOTP is set up once and asked each time', async () => {
    const moderator = await createStaffUser(stack, 'raly-moderator');
    users.push(moderator);

    const first = await consoleSignIn(stack, moderator);
    const secretAfterSetup = moderator.totpSecret;
    const second = await consoleSignIn(stack, moderator);

    assert.ok(secretAfterSetup, 'TOTP was set up at the first sign-in');
    assert.equal(moderator.totpSecret, secretAfterSetup);
    const claims = decodeJwtClaims(second.access_token) as {
      azp: string;
      aud: string | string[];
      realm_access: { roles: string[] };
    };
    assert.equal(claims.azp, consoleClientId);
    assert.ok([claims.aud].flat().includes('raly-bff'));
    assert.ok(claims.realm_access.roles.includes('raly-moderator'));
    assert.ok(first.refresh_token);
  });

  test('when an admin signs in, then the token carries both staff roles', async () => {
    const admin = await createStaffUser(stack, 'raly-admin');
    users.push(admin);

    const tokens = await consoleSignIn(stack, admin);

    const roles = (decodeJwtClaims(tokens.access_token) as { realm_access: { roles: string[] } })
      .realm_access.roles;
    assert.ok(roles.includes('raly-admin') && roles.includes('raly-moderator'), roles.join());
  });

  test('when the console client is asked for a password grant, then Keycloak refuses it', async () => {
    const moderator = await createStaffUser(stack, 'raly-moderator');
    users.push(moderator);

    const response = await fetch(
      `${stack.keycloakUrl}/realms/${stack.realm}/protocol/openid-connect/token`,
      {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: consoleClientId,
          username: moderator.email,
          password: moderator.password,
        }),
      },
    );

    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: string }).error, 'unauthorized_client');
  });
});
