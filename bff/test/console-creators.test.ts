/**
 * A staff member's creator lookup through the console (docs/console.md, docs/api.md § Console),
 * against the real Keycloak and identity-profile: creators found by the start of their username or
 * their whole e-mail, with their flags and never a contact detail, also in a decision's answer.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { ConsoleCreator } from '@raly/contracts/internal';
import { messages } from '@raly/contracts/messages';
import type { RunningBff } from '../src/app';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  type StaffUser,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import { type RalySystem, registeredCreator, startSystem } from '@raly/test-support/system';

describe('creator lookup in the console', () => {
  let system: RalySystem;
  let bff: RunningBff;
  let moderator: StaffUser;
  let staffToken: string;

  beforeAll(async () => {
    system = await startSystem();
    await ensureStaffRealm(system.stack);
    bff = await startTestBff(system.stack, { IDENTITY_URL: system.identityUrl });
    moderator = await createStaffUser(system.stack, 'raly-moderator');
    staffToken = (await consoleSignIn(system.stack, moderator)).access_token;
  });

  afterAll(async () => {
    await bff?.stop();
    await system?.stop();
    if (moderator) await deleteStaffUser(system.stack, moderator);
  });

  const lookUp = (query: string) =>
    callBff<ConsoleCreator[]>(
      bff,
      'GET',
      `/api/console/creators?${new URLSearchParams({ query })}`,
      { token: staffToken },
    );

  test('when a moderator looks a creator up by username start or whole e-mail, then the creator comes with its flags and no contact details', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(system);

    // Act
    const byUsername = await lookUp(registration.username.slice(0, -2).toUpperCase());
    const byEmail = await lookUp(registration.email.toUpperCase());

    // Assert
    assert.equal(byUsername.status, 200, JSON.stringify(byUsername.body));
    assert.ok(byUsername.body.data.length <= 20);
    const found = byUsername.body.data.find((creator) => creator.id === userId);
    assert.equal(found?.username, registration.username);
    assert.equal(found?.permissions.isSuspended, false);
    assert.equal(byEmail.status, 200);
    assert.deepEqual(
      byEmail.body.data.map((creator) => creator.id),
      [userId],
    );
    for (const answer of [byUsername, byEmail])
      assert.equal(JSON.stringify(answer.body).includes(registration.email), false);
  });

  test("when a moderator suspends a found creator, then the decision's answer carries the suspension and no e-mail", async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(system);

    // Act
    const suspended = await callBff<ConsoleCreator>(
      bff,
      'PUT',
      `/api/console/creators/${userId}/suspension`,
      { token: staffToken, body: { suspended: true, reason: 'Spam in applications' } },
    );
    const found = await lookUp(registration.email);

    // Assert
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    assert.equal(suspended.body.data.permissions.isSuspended, true);
    assert.equal('email' in suspended.body.data, false);
    assert.equal(JSON.stringify(suspended.body).includes(registration.email), false);
    assert.deepEqual(
      found.body.data.map((creator) => [creator.id, creator.permissions.isSuspended]),
      [[userId, true]],
    );
  });

  test('when the query is missing, under 3 or over 100 characters, then the lookup is refused with 400 and the rule', async () => {
    // Act
    const none = await callBff(bff, 'GET', '/api/console/creators', { token: staffToken });
    const short = await lookUp('  ab  ');
    const long = await lookUp('a'.repeat(101));

    // Assert
    assert.deepEqual(
      [none, short, long].map((answer) => [answer.status, answer.body.error.message]),
      [
        [400, messages.creatorQueryTooShort],
        [400, messages.creatorQueryTooShort],
        [400, messages.searchTooLong],
      ],
    );
  });
});
