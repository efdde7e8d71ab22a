/**
 * A staff member's decision on a brand's verified badge through the console (docs/console.md,
 * docs/api.md § Console), against the real Keycloak, identity-profile and brand services: the
 * badge changes at the brand service and shows on the brand's public page.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { BrandRecord } from '@raly/contracts/records';
import type { RunningBff } from '../src/app';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  type StaffUser,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import { type RalySystem, registeredBrand, startSystem } from '@raly/test-support/system';

describe('brand verification in the console', () => {
  let system: RalySystem;
  let bff: RunningBff;
  let moderator: StaffUser;
  let staffToken: string;
  let brand: Awaited<ReturnType<typeof registeredBrand>>;

  beforeAll(async () => {
    system = await startSystem();
    await ensureStaffRealm(system.stack);
    bff = await startTestBff(system.stack, {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
    });
    moderator = await createStaffUser(system.stack, 'raly-moderator');
    staffToken = (await consoleSignIn(system.stack, moderator)).access_token;
    brand = await registeredBrand(system);
  });

  afterAll(async () => {
    await bff?.stop();
    await system?.stop();
    if (moderator) await deleteStaffUser(system.stack, moderator);
  });

  const decide = (body: unknown, brandId = brand.brandId, token = staffToken) =>
    callBff<BrandRecord>(bff, 'PUT', `/api/console/brands/${brandId}/verification`, {
      token,
      body,
    });
  const publicBadge = async () => {
    const page = await callBff<BrandRecord>(
      bff,
      'GET',
      `/api/brands/${brand.registration.username}`,
    );
    assert.equal(page.status, 200, JSON.stringify(page.body));
    return page.body.data.permissions.isVerified;
  };

  test('when a moderator verifies a brand and then takes it back, then its public page follows', async () => {
    assert.equal(await publicBadge(), false);

    const verified = await decide({ isVerified: true, reason: 'Company documents checked' });
    const badgeAfterVerify = await publicBadge();
    const unverified = await decide({ isVerified: false, reason: 'Documents turned out forged' });

    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.data.permissions.isVerified, true);
    assert.equal(badgeAfterVerify, true);
    assert.equal(unverified.status, 200);
    assert.equal(unverified.body.data.permissions.isVerified, false);
    assert.equal(await publicBadge(), false);
  });

  test('when the decision has no reason or a wrong type, then it is refused with 400', async () => {
    const noReason = await decide({ isVerified: true });
    const wrongType = await decide({ isVerified: 'yes', reason: 'Documents checked' });

    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error.code, 'invalid-argument');
    assert.equal(wrongType.status, 400);
    assert.equal(await publicBadge(), false);
  });

  test('when the brand does not exist, then the console answers 404', async () => {
    const answer = await decide(
      { isVerified: true, reason: 'Documents checked' },
      '00000000-0000-4000-8000-000000000000',
    );

    assert.equal(answer.status, 404);
  });

  test("when a brand user's own token is used, then the console refuses it with 401", async () => {
    const answer = await decide(
      { isVerified: true, reason: 'Verifying myself' },
      brand.brandId,
      brand.accessToken,
    );

    assert.equal(answer.status, 401);
    assert.equal(await publicBadge(), false);
  });
});
