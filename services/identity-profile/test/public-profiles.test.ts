/**
 * `GET /public/users/:username`: a creator's public profile, for
 * anyone — public fields only, never a name, e-mail or phone number; 404
 * for an unknown username, a brand's username, or a malformed one; 404
 * 'This creator is unavailable.' while the creator is suspended.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { PublicCreatorProfile } from '@raly/contracts/offers';
import { callApi, uniqueToken } from '@raly/test-support';
import { call, callAsBrand, registeredCreator, useIdentityService } from './support';

const harness = useIdentityService();

/** A call with no token and no service token: what a visitor's request looks like. */
const asVisitor = <T>(path: string) => callApi<T>(harness.baseUrl, 'GET', path);

describe('GET /public/users/:username', () => {
  test('when anyone asks for a creator by username, then it answers only the public fields', async () => {
    // Arrange
    const creator = await registeredCreator(harness);
    const changed = await call(
      harness,
      'PATCH',
      '/users/me',
      { phoneNumber: '+15555550123', interests: ['Gaming', 'Sports'] },
      creator.accessToken,
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));

    // Act
    const answer = await asVisitor<PublicCreatorProfile>(
      `/public/users/${creator.registration.username}`,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const profile = answer.body.data!;
    assert.deepEqual(Object.keys(profile).sort(), [
      'coverImg',
      'id',
      'interests',
      'profileImg',
      'socials',
      'username',
    ]);
    assert.equal(profile.id, creator.userId);
    assert.equal(profile.username, creator.registration.username.toLowerCase());
    assert.deepEqual(profile.interests, ['Gaming', 'Sports']);
    assert.deepEqual(Object.keys(profile.socials).sort(), ['instagram', 'threads', 'x']);
    const text = JSON.stringify(answer.body);
    assert.ok(!text.includes(creator.registration.email), 'no e-mail');
    assert.ok(!text.includes('+15555550123'), 'no phone number');
    assert.ok(!/firstName|lastName|email|phoneNumber/.test(text), 'no private field names');
  });

  test('when the username is typed in capitals with spaces around it, then the same creator is found', async () => {
    // Arrange
    const creator = await registeredCreator(harness);

    // Act
    const answer = await asVisitor<PublicCreatorProfile>(
      `/public/users/${encodeURIComponent(` ${creator.registration.username.toUpperCase()} `)}`,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data!.id, creator.userId);
  });

  test('when no creator holds the username, then it answers 404 with the page-not-found message', async () => {
    // Act
    const answer = await asVisitor(`/public/users/nobody${uniqueToken(8)}`);

    // Assert
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error?.code, 'not-found');
    assert.equal(answer.body.error?.message, messages.pageNotFound);
  });

  test('when the creator is suspended, then it answers 404 with the unavailable message and nothing of the profile; after the lift it answers the profile again', async () => {
    // Arrange
    const creator = await registeredCreator(harness);
    const path = `/public/users/${creator.registration.username}`;
    const suspension = (suspended: boolean) =>
      call(harness, 'PUT', `/users/${creator.userId}/suspension`, {
        suspended,
        reason: suspended ? 'Fake followers' : 'Appeal accepted',
        staff: { userId: 'staff-1', email: 'staff-1@raly.test' },
      });
    assert.equal((await suspension(true)).status, 200);

    // Act
    const whileSuspended = await asVisitor<PublicCreatorProfile>(path);
    assert.equal((await suspension(false)).status, 200);
    const afterLift = await asVisitor<PublicCreatorProfile>(path);

    // Assert
    assert.equal(whileSuspended.status, 404, JSON.stringify(whileSuspended.body));
    assert.equal(whileSuspended.body.error?.code, 'not-found');
    assert.equal(whileSuspended.body.error?.message, messages.creatorUnavailable);
    assert.equal(whileSuspended.body.data, undefined);
    assert.ok(!JSON.stringify(whileSuspended.body).includes(creator.userId), 'nothing of them');
    assert.equal(afterLift.status, 200, JSON.stringify(afterLift.body));
    assert.equal(afterLift.body.data!.id, creator.userId);
  });

  test("when the username is a brand's, then it answers 404: brands have no creator profile", async () => {
    // Arrange: the brand service claims a brand's username in the one registry
    const username = `brand${uniqueToken(8)}`;
    const claimed = await callAsBrand(harness, 'POST', '/usernames/claim', {
      username,
      ownerType: 'brand',
      ownerId: `brand-${uniqueToken(8)}`,
    });
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));

    // Act
    const answer = await asVisitor(`/public/users/${username}`);

    // Assert
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error?.message, messages.pageNotFound);
  });

  test('when the username is malformed (too long, NUL, symbols), then it answers 404, not 400 or 500', async () => {
    for (const username of ['x'.repeat(500), 'a%00b', 'a%27%3B--', '%E2%80%AE']) {
      // Act
      const answer = await asVisitor(`/public/users/${username}`);

      // Assert
      assert.equal(answer.status, 404, `${username}: ${JSON.stringify(answer.body)}`);
    }
  });
});
