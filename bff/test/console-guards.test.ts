/**
 * The guards of the staff console's routes (docs/console.md, docs/api.md § Console), against the
 * real Keycloak: `/api/console` takes only access tokens of the console client raly-console
 * (signed in with password and TOTP) carrying a staff role, and the product's routes refuse
 * those tokens.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { RunningBff } from '../src/app';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  identityServiceToken,
  passwordGrant,
  testKeycloak,
  testStack,
  type StaffUser,
  type TestKeycloak,
  type TestStack,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';

describe('the console guards', () => {
  let stack: TestStack;
  let bff: RunningBff;
  let keycloak: TestKeycloak;
  const staff: StaffUser[] = [];
  const tokens: Record<'moderator' | 'admin' | 'nonStaff', string> = {
    moderator: '',
    admin: '',
    nonStaff: '',
  };
  let moderator: StaffUser;

  const signedIn = async (role: StaffUser['role'] | undefined) => {
    const user = await createStaffUser(stack, role);
    staff.push(user);
    return { user, accessToken: (await consoleSignIn(stack, user)).access_token };
  };

  beforeAll(async () => {
    stack = await testStack();
    await ensureStaffRealm(stack);
    bff = await startTestBff(stack);
    keycloak = testKeycloak(stack);
    const [asModerator, asAdmin, asNonStaff] = [
      await signedIn('raly-moderator'),
      await signedIn('raly-admin'),
      await signedIn(undefined),
    ];
    moderator = asModerator.user;
    tokens.moderator = asModerator.accessToken;
    tokens.admin = asAdmin.accessToken;
    tokens.nonStaff = asNonStaff.accessToken;
  });

  afterAll(async () => {
    vi.useRealTimers();
    await bff?.stop();
    await keycloak?.cleanUp();
    await Promise.all(staff.map((user) => deleteStaffUser(stack, user)));
  });

  test('when a moderator calls a moderator route, then it answers who they are', async () => {
    const answer = await callBff<{ userId: string; email: string; roles: string[] }>(
      bff,
      'GET',
      '/api/console/me',
      { token: tokens.moderator },
    );

    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data, {
      userId: moderator.id,
      email: moderator.email,
      roles: ['raly-moderator'],
    });
  });

  test('when a moderator calls an admin route, then it is refused with 403', async () => {
    const answer = await callBff(bff, 'GET', '/api/console/admin/me', { token: tokens.moderator });

    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, 'permission-denied');
  });

  test('when an admin calls the admin and the moderator routes, then both answer', async () => {
    const admin = await callBff<{ roles: string[] }>(bff, 'GET', '/api/console/admin/me', {
      token: tokens.admin,
    });
    const asModerator = await callBff(bff, 'GET', '/api/console/me', { token: tokens.admin });

    assert.equal(admin.status, 200);
    assert.deepEqual(admin.body.data.roles.sort(), ['raly-admin', 'raly-moderator']);
    assert.equal(asModerator.status, 200);
  });

  test('when a realm user without a staff role signs in to the console, then the console refuses them with 403', async () => {
    const answer = await callBff(bff, 'GET', '/api/console/me', { token: tokens.nonStaff });

    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, 'permission-denied');
  });

  test('when no token or a forged one is sent, then the console answers 401', async () => {
    const none = await callBff(bff, 'GET', '/api/console/me');
    const forged = await callBff(bff, 'GET', '/api/console/me', {
      token: `${tokens.moderator.slice(0, -8)}AAAAAAAA`,
    });

    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'unauthenticated');
    assert.equal(forged.status, 401);
  });

  test("when a creator's or brand's product token is sent to the console, then it answers 401", async () => {
    const user = await keycloak.createUser();
    const product = await passwordGrant(stack, user.email, user.password);

    const answer = await callBff(bff, 'GET', '/api/console/me', { token: product.access_token });

    assert.equal(answer.status, 401);
    assert.equal(answer.body.error.code, 'unauthenticated');
  });

  test("when another client's token is sent to the console, then it answers 401", async () => {
    const serviceToken = await identityServiceToken(stack);

    const answer = await callBff(bff, 'GET', '/api/console/me', { token: serviceToken });

    assert.equal(answer.status, 401);
  });

  test("when a staff member's console token is sent to the product, then the product answers 401", async () => {
    const me = await callBff(bff, 'GET', '/api/me', { token: tokens.admin });
    const brand = await callBff(bff, 'PATCH', '/api/brand', {
      token: tokens.admin,
      body: { displayName: 'Staff acting as a brand' },
    });

    assert.equal(me.status, 401);
    assert.equal(brand.status, 401);
  });

  test('when the console token has expired, then the console answers 401', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 });
    try {
      const answer = await callBff(bff, 'GET', '/api/console/me', { token: tokens.moderator });

      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'unauthenticated');
    } finally {
      vi.useRealTimers();
    }
  });

  test("when the creator lookup is called without a token or with a creator's product token, then it answers 401", async () => {
    // Arrange
    const creator = await keycloak.createUser();
    const product = await passwordGrant(stack, creator.email, creator.password);

    // Act
    const none = await callBff(bff, 'GET', '/api/console/creators?query=abc');
    const asCreator = await callBff(bff, 'GET', '/api/console/creators?query=abc', {
      token: product.access_token,
    });

    // Assert
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'unauthenticated');
    assert.equal(asCreator.status, 401);
    assert.equal(asCreator.body.error.code, 'unauthenticated');
  });

  test('when a console user without a staff role looks creators up, then it is refused with 403; a moderator passes the guard to the query check (400)', async () => {
    // Act
    const noRole = await callBff(bff, 'GET', '/api/console/creators?query=abc', {
      token: tokens.nonStaff,
    });
    const asModerator = await callBff(bff, 'GET', '/api/console/creators?query=ab', {
      token: tokens.moderator,
    });

    // Assert
    assert.equal(noRole.status, 403);
    assert.equal(noRole.body.error.code, 'permission-denied');
    assert.equal(asModerator.status, 400);
    assert.equal(asModerator.body.error.message, messages.creatorQueryTooShort);
  });
});
