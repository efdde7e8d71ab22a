/**
 * A staff member's brand lookup and decision on a brand's verified badge through the console
 * (docs/console.md, docs/api.md § Console), against the real Keycloak, identity-profile and brand services: the
 * badge changes at the brand service and shows on the brand's public page, and each decision's
 * audit entry names the staff member and the reason.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { topics } from '@raly/contracts/events';
import type { BrandRecord } from '@raly/contracts/records';
import type { RunningBff } from '../src/app';
import {
  consoleSignIn,
  createStaffUser,
  deleteStaffUser,
  ensureStaffRealm,
  listenToTopic,
  settledAuditEntries,
  type StaffUser,
  type TopicListener,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import { type RalySystem, registeredBrand, startSystem } from '@raly/test-support/system';

describe('brand verification in the console', () => {
  let system: RalySystem;
  let bff: RunningBff;
  let moderator: StaffUser;
  let staffToken: string;
  let brand: Awaited<ReturnType<typeof registeredBrand>>;
  let auditEvents: TopicListener;

  beforeAll(async () => {
    system = await startSystem();
    auditEvents = await listenToTopic(system.stack.kafkaBrokers, topics.brandAudit);
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
    await auditEvents?.stop();
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

  test('when a moderator verifies a brand and then takes it back, then its public page follows and each decision is audited with the moderator and the reason', async () => {
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
    const entries = await settledAuditEntries(auditEvents, brand.brandId, 2);
    assert.deepEqual(
      entries.map(({ entry }) => [entry.staff, entry.action, entry.reason]),
      [
        [
          { userId: moderator.id, email: moderator.email },
          'brand.verify',
          'Company documents checked',
        ],
        [
          { userId: moderator.id, email: moderator.email },
          'brand.unverify',
          'Documents turned out forged',
        ],
      ],
    );
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

  const lookUp = (query: string, token = staffToken) =>
    callBff<BrandRecord[]>(bff, 'GET', `/api/console/brands?${query}`, { token });

  test('when a moderator looks brands up by username start or company part, then the brand comes with its badge and no contact details', async () => {
    const { username, company, email, firstName, lastName } = brand.registration;

    const byUsername = await lookUp(
      new URLSearchParams({ query: username.slice(0, 6).toUpperCase() }).toString(),
    );
    const byCompany = await lookUp(
      new URLSearchParams({ query: company.slice(3).toLowerCase() }).toString(),
    );

    assert.equal(byUsername.status, 200, JSON.stringify(byUsername.body));
    assert.ok(byUsername.body.data.length <= 20);
    assert.ok(byUsername.body.data.some((found) => found.id === brand.brandId));
    assert.equal(byCompany.status, 200);
    const found = byCompany.body.data.find((candidate) => candidate.id === brand.brandId);
    assert.equal(found?.username, username);
    assert.equal(found?.permissions.isVerified, false);
    const text = JSON.stringify(byCompany.body);
    for (const contact of [email, firstName, lastName]) assert.equal(text.includes(contact), false);
  });

  test('when the lookup has no query or a blank one, then it is refused with 400', async () => {
    const none = await lookUp('');
    const blank = await lookUp('query=%20');

    assert.deepEqual(
      [none.status, blank.status, none.body.error.code],
      [400, 400, 'invalid-argument'],
    );
  });

  test("when a brand user's token or a console token without a staff role looks brands up, then it is refused (401, 403)", async () => {
    const outsider = await createStaffUser(system.stack, undefined);
    try {
      const outsiderToken = (await consoleSignIn(system.stack, outsider)).access_token;

      const product = await lookUp('query=acme', brand.accessToken);
      const noRole = await lookUp('query=acme', outsiderToken);

      assert.equal(product.status, 401);
      assert.equal(noRole.status, 403);
      assert.equal(noRole.body.error.code, 'permission-denied');
    } finally {
      await deleteStaffUser(system.stack, outsider);
    }
  });
});
