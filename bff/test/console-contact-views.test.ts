/**
 * Staff viewing contact details through the console (docs/console.md "Contact details", docs/api.md
 * § Console), against the real Keycloak, identity-profile and brand services: a moderator's view
 * answers a creator's e-mail or a brand's members, never cached, each view an audit entry on
 * identity.audit.v1; a missing or short reason is refused before anything is asked.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { topics } from '@raly/contracts/events';
import type { ContactView } from '@raly/contracts/internal';
import { messages } from '@raly/contracts/messages';
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
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

describe('contact details in the console', () => {
  let system: RalySystem;
  let bff: RunningBff;
  let auditEvents: TopicListener;
  const staff: StaffUser[] = [];
  let moderator: StaffUser;
  let moderatorToken: string;
  let nonStaffToken: string;

  beforeAll(async () => {
    system = await startSystem();
    auditEvents = await listenToTopic(system.stack.kafkaBrokers, topics.identityAudit);
    await ensureStaffRealm(system.stack);
    bff = await startTestBff(system.stack, {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
    });
    moderator = await createStaffUser(system.stack, 'raly-moderator');
    const nonStaff = await createStaffUser(system.stack, undefined);
    staff.push(moderator, nonStaff);
    moderatorToken = (await consoleSignIn(system.stack, moderator)).access_token;
    nonStaffToken = (await consoleSignIn(system.stack, nonStaff)).access_token;
  });

  afterAll(async () => {
    await auditEvents?.stop();
    await bff?.stop();
    await system?.stop();
    await Promise.all(staff.map((user) => deleteStaffUser(system.stack, user)));
  });

  const view = (accounts: 'creators' | 'brands', id: string, body: unknown, token?: string) =>
    callBff<ContactView>(bff, 'POST', `/api/console/${accounts}/${id}/contact-view`, {
      token,
      body,
    });

  test("when a moderator views a creator's contact details with a reason, then the answer holds the e-mail, is not cached, and the view is an audit entry naming the moderator", async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(system);

    // Act
    const answer = await view('creators', userId, { reason: 'Payout query' }, moderatorToken);

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(answer.body.data.kind, 'creator');
    assert.equal(answer.body.data.kind === 'creator' && answer.body.data.email, registration.email);
    const entries = await settledAuditEntries(auditEvents, userId, 1);
    assert.deepEqual(
      entries.map(({ entry }) => [entry.action, entry.staff, entry.reason, entry.target.label]),
      [
        [
          'contact.view',
          { userId: moderator.id, email: moderator.email },
          'Payout query',
          registration.username,
        ],
      ],
    );
  });

  test("when a moderator views a brand's contact details, then the answer lists its admin member and the audit entry names the brand's company", async () => {
    // Arrange
    const brand = await registeredBrand(system);

    // Act
    const answer = await view(
      'brands',
      brand.brandId,
      { reason: 'Invoice dispute' },
      moderatorToken,
    );
    const unknown = await view(
      'brands',
      'no-such-brand',
      { reason: 'Invoice dispute' },
      moderatorToken,
    );

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.deepEqual(answer.body.data, {
      kind: 'brand',
      id: brand.brandId,
      members: [
        {
          userId: brand.userId,
          email: brand.registration.email,
          firstName: brand.registration.firstName,
          lastName: brand.registration.lastName,
          isAdmin: true,
        },
      ],
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.message, 'No such brand.');
    const entries = await settledAuditEntries(auditEvents, brand.brandId, 1);
    assert.deepEqual(
      entries.map(({ entry }) => [entry.action, entry.target, entry.reason]),
      [
        [
          'contact.view',
          { kind: 'brand', id: brand.brandId, label: brand.registration.company },
          'Invoice dispute',
        ],
      ],
    );
  });

  test('when the reason is missing, short or long, then 400 in the rule’s words and no audit entry', async () => {
    // Arrange
    const { userId } = await registeredCreator(system);

    // Act
    const answers = [
      await view('creators', userId, {}, moderatorToken),
      await view('creators', userId, { reason: ' ab ' }, moderatorToken),
      await view('creators', userId, { reason: 'x'.repeat(501) }, moderatorToken),
    ];

    // Assert
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body.error.message]),
      [
        [400, messages.contactViewReasonRequired],
        [400, messages.contactViewReasonRequired],
        [400, messages.suspensionReasonTooLong],
      ],
    );
    assert.deepEqual(await settledAuditEntries(auditEvents, userId, 0), []);
  });

  test("when a staff member's views pass RATE_LIMIT_CONTACT_VIEW_PER_STAFF, then the next is refused 429 with Retry-After and records no audit entry", async () => {
    // Arrange
    const limited = await startTestBff(system.stack, {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
      RATE_LIMIT_CONTACT_VIEW_PER_STAFF: { points: 2, durationSeconds: 3600 },
    });
    const { userId } = await registeredCreator(system);
    const viewOnce = () =>
      callBff<ContactView>(limited, 'POST', `/api/console/creators/${userId}/contact-view`, {
        token: moderatorToken,
        body: { reason: 'Payout query' },
      });

    try {
      // Act
      const answers = [await viewOnce(), await viewOnce(), await viewOnce()];

      // Assert
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200, 429],
      );
      assert.ok(Number(answers[2]!.headers.get('retry-after')) > 0);
      assert.equal((await settledAuditEntries(auditEvents, userId, 2)).length, 2);
    } finally {
      await limited.stop();
    }
  });

  test('when there is no token, a product token or a console user without a staff role, then 401, 401 and 403 with no audit entry', async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const body = { reason: 'Payout query' };

    // Act
    const none = await view('creators', creator.userId, body);
    const product = await view('creators', creator.userId, body, creator.accessToken);
    const nonStaff = await view('creators', creator.userId, body, nonStaffToken);
    const nonStaffBrand = await view('brands', 'any-brand', body, nonStaffToken);

    // Assert
    assert.deepEqual(
      [none, product, nonStaff, nonStaffBrand].map((answer) => answer.status),
      [401, 401, 403, 403],
    );
    assert.deepEqual(await settledAuditEntries(auditEvents, creator.userId, 0), []);
  });
});
