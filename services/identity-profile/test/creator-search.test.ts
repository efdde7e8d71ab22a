/**
 * The staff console's creator lookup at identity-profile (`GET /creators?query=`, internal, the
 * BFF only; docs/console.md): the start of a username or a whole e-mail, ignoring case, at most
 * 20 by username, the public profile and the permission flags only (no contact detail).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { ConsoleCreator } from '@raly/contracts/internal';
import { messages } from '@raly/contracts/messages';
import { callApi, serviceTokenOf } from '@raly/test-support';
import { call, registeredBrandUser, registeredCreator, useIdentityService } from './support';

const harness = useIdentityService();

/** GET /creators?query=… as the BFF. */
const search = (query: string) =>
  call<ConsoleCreator[]>(harness, 'GET', `/creators?${new URLSearchParams({ query })}`);

describe('creator lookup for the console (GET /creators?query=, the BFF only)', () => {
  test('when the query is the start of a username in another case, then the creator is found with public fields and flags, without contact details', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);

    // Act
    const byPrefix = await search(registration.username.slice(0, -3).toUpperCase());
    const byMiddle = await search(registration.username.slice(1));

    // Assert
    assert.equal(byPrefix.status, 200, JSON.stringify(byPrefix.body));
    const found = byPrefix.body.data?.find((creator) => creator.id === userId);
    assert.ok(found, `${userId} not in ${JSON.stringify(byPrefix.body.data)}`);
    assert.equal(found.username, registration.username);
    assert.deepEqual(found.permissions, {
      isInfluencer: false,
      isBoosted: false,
      isVerified: false,
      isSuspended: false,
      isAmbassador: false,
    });
    for (const field of ['email', 'firstName', 'lastName', 'phoneNumber'])
      assert.equal(field in found, false, `${field} answered`);
    assert.equal(JSON.stringify(byPrefix.body).includes(registration.email), false);
    // A username is matched from its start only.
    assert.equal(
      byMiddle.body.data?.some((creator) => creator.id === userId),
      false,
    );
  });

  test('when the query is a whole e-mail in another case, then only that creator is found, with its suspension; a part of an e-mail or a brand user finds nobody', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);
    const brandUser = await registeredBrandUser(harness);
    await call(harness, 'PUT', `/users/${userId}/suspension`, {
      suspended: true,
      reason: 'Fake followers',
      staff: { userId: 'staff-search', email: 'staff-search@raly.test' },
    });

    // Act
    const byEmail = await search(` ${registration.email.toUpperCase()} `);
    const byEmailStart = await search(registration.email.slice(0, -4));
    const byBrandEmail = await search(brandUser.email);

    // Assert
    assert.equal(byEmail.status, 200, JSON.stringify(byEmail.body));
    assert.deepEqual(
      byEmail.body.data?.map((creator) => [creator.id, creator.permissions.isSuspended]),
      [[userId, true]],
    );
    assert.equal(JSON.stringify(byEmail.body).includes(registration.email), false);
    assert.deepEqual(byEmailStart.body.data, []);
    assert.deepEqual(byBrandEmail.body.data, []);
  });

  test('when the query is missing, shorter than 3, longer than 100 characters or repeated, then the answer is 400 with the rule', async () => {
    // Act
    const answers = await Promise.all([
      call(harness, 'GET', '/creators'),
      search(' ab '),
      search('a'.repeat(101)),
      call(harness, 'GET', '/creators?query=abc&query=abd'),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body.error?.message]),
      [
        [400, messages.creatorQueryTooShort],
        [400, messages.creatorQueryTooShort],
        [400, messages.searchTooLong],
        [400, messages.creatorQueryTooShort],
      ],
    );
  });

  test("when the call has no service token or another service's, then it is refused (401, 403)", async () => {
    // Arrange
    const { registration } = await registeredCreator(harness);
    const path = `/creators?${new URLSearchParams({ query: registration.username })}`;

    // Act
    const anonymous = await callApi(harness.baseUrl, 'GET', path);
    const asBrand = await callApi(harness.baseUrl, 'GET', path, {
      serviceToken: serviceTokenOf(harness.stack, 'brand'),
    });

    // Assert
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.data, undefined);
    assert.equal(asBrand.status, 403);
    assert.equal(asBrand.body.error?.code, 'permission-denied');
  });
});
