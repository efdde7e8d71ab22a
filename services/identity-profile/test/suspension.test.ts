import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import type { UserRecord } from '@raly/contracts/records';
import { callApi, passwordGrant, serviceTokenOf, settledAuditEntries } from '@raly/test-support';
import {
  call,
  envelopeOf,
  registeredBrandUser,
  registeredCreator,
  staffMember,
  useAuditEvents,
  useIdentityService,
} from './support';

const harness = useIdentityService();
const audit = useAuditEvents(harness);

const keyOf = (message: { key: Buffer | null }) => message.key?.toString() ?? '';

/** The staff decision columns of a user. */
async function suspensionRow(userId: string) {
  const { rows } = await harness.sql.query<{
    is_suspended: boolean;
    suspended_at: Date | null;
    suspended_by: string | null;
    suspension_reason: string | null;
    version: number;
  }>(
    'SELECT is_suspended, suspended_at, suspended_by, suspension_reason, version FROM users WHERE id = $1',
    [userId],
  );
  return rows[0]!;
}

describe('suspending a creator (PUT /users/:id/suspension, the BFF only)', () => {
  test('when the BFF suspends a creator, then the decision is stored with who and why, identity.user.updated carries isSuspended, one audit entry records it, and their Keycloak sessions end', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);
    const session = await passwordGrant(harness.stack, registration.email, registration.password);
    const staff = staffMember('staff-1');

    // Act
    const answer = await call<UserRecord>(harness, 'PUT', `/users/${userId}/suspension`, {
      suspended: true,
      reason: 'Spam in applications',
      staff,
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data?.permissions.isSuspended, true);
    const row = await suspensionRow(userId);
    assert.equal(row.is_suspended, true);
    assert.equal(row.suspended_by, staff.userId);
    assert.equal(row.suspension_reason, 'Spam in applications');
    assert.ok(row.suspended_at instanceof Date);
    const event = await harness.userEvents.waitFor(
      (m) => keyOf(m) === userId && envelopeOf(m).version === answer.body.data?.version,
    );
    assert.equal(envelopeOf(event).type, eventTypes.userUpdated);
    assert.equal((envelopeOf(event).data as UserRecord).permissions.isSuspended, true);
    const [published, ...more] = await settledAuditEntries(audit.events, userId, 1);
    assert.deepEqual(more, []);
    const { key, envelope, entry } = published!;
    assert.deepEqual(
      [envelope.type, envelope.subject, key, envelope.version],
      [eventTypes.identityAuditEntryRecorded, entry.id, entry.id, 1],
    );
    assert.deepEqual(
      { ...entry, id: undefined },
      {
        id: undefined,
        at: row.suspended_at!.toISOString(),
        staff,
        action: 'creator.suspend',
        target: { kind: 'creator', id: userId, label: answer.body.data!.username! },
        reason: 'Spam in applications',
        details: {},
      },
    );
    assert.equal(await harness.users.refreshWorks(session.refresh_token!), false);
  });

  test('when the same decision comes twice, then the second changes nothing (same version, no audit entry), and lifting clears the decision, restores sign-in and records its own entry', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);
    const suspend = { suspended: true, reason: 'Fake followers', staff: staffMember('staff-2') };
    const first = await call<UserRecord>(harness, 'PUT', `/users/${userId}/suspension`, suspend);

    // Act
    const again = await call<UserRecord>(harness, 'PUT', `/users/${userId}/suspension`, suspend);
    const lifted = await call<UserRecord>(harness, 'PUT', `/users/${userId}/suspension`, {
      suspended: false,
      reason: 'Appeal accepted',
      staff: staffMember('staff-3'),
    });

    // Assert
    assert.equal(again.status, 200);
    assert.equal(again.body.data?.version, first.body.data?.version);
    assert.equal(lifted.body.data?.permissions.isSuspended, false);
    assert.equal(lifted.body.data?.version, first.body.data!.version + 1);
    const row = await suspensionRow(userId);
    assert.deepEqual(
      [row.is_suspended, row.suspended_at, row.suspended_by, row.suspension_reason],
      [false, null, null, null],
    );
    assert.equal(await harness.users.signsIn(registration.email, registration.password), true);
    const entries = await settledAuditEntries(audit.events, userId, 2);
    assert.deepEqual(
      entries.map(({ entry }) => [entry.action, entry.staff.email, entry.reason]),
      [
        ['creator.suspend', 'staff-2@raly.test', 'Fake followers'],
        ['creator.lift-suspension', 'staff-3@raly.test', 'Appeal accepted'],
      ],
    );
  });

  test('when the reason is missing or too long, the staff member missing, the id unknown or a brand user, or the caller not the BFF, then 400, 404 and 403 with nothing changed and no audit entry', async () => {
    // Arrange
    const { userId } = await registeredCreator(harness);
    const brandUser = await registeredBrandUser(harness);
    const path = `/users/${userId}/suspension`;

    // Act
    const noReason = await call(harness, 'PUT', path, {
      suspended: true,
      reason: '  ',
      staff: staffMember('s'),
    });
    const longReason = await call(harness, 'PUT', path, {
      suspended: true,
      reason: 'x'.repeat(501),
      staff: staffMember('s'),
    });
    const noStaff = await call(harness, 'PUT', path, { suspended: true, reason: 'Spam' });
    const unknown = await call(harness, 'PUT', '/users/no-such-user/suspension', {
      suspended: true,
      reason: 'Spam',
      staff: staffMember('s'),
    });
    const brandSide = await call(harness, 'PUT', `/users/${brandUser.userId}/suspension`, {
      suspended: true,
      reason: 'Spam',
      staff: staffMember('s'),
    });
    const asBrand = await callApi(harness.baseUrl, 'PUT', path, {
      body: { suspended: true, reason: 'Spam', staff: staffMember('s') },
      serviceToken: serviceTokenOf(harness.stack, 'brand'),
    });

    // Assert
    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error?.fields?.reason, messages.suspensionReasonRequired);
    assert.equal(longReason.status, 400);
    assert.equal(longReason.body.error?.fields?.reason, messages.suspensionReasonTooLong);
    assert.equal(noStaff.status, 400);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error?.message, 'No such creator.');
    assert.equal(brandSide.status, 404);
    assert.equal(asBrand.status, 403);
    assert.equal((await suspensionRow(userId)).is_suspended, false);
    assert.deepEqual(await settledAuditEntries(audit.events, userId, 0), []);
    assert.deepEqual(
      await settledAuditEntries(audit.events, brandUser.userId, 0, { settleMs: 0 }),
      [],
    );
  });
});

describe("a creator's flags (PUT /users/:id/flags) and ending sessions (POST /sessions/end)", () => {
  test('when the BFF sets isBoosted and isAmbassador, then the record and its event carry them and one audit entry records them; the same flags again change nothing and record nothing; no flag is 400', async () => {
    // Arrange
    const { userId } = await registeredCreator(harness);
    const staff = staffMember('admin-1');
    const path = `/users/${userId}/flags`;

    // Act
    const set = await call<UserRecord>(harness, 'PUT', path, {
      isBoosted: true,
      isAmbassador: true,
      staff,
    });
    const again = await call<UserRecord>(harness, 'PUT', path, { isBoosted: true, staff });
    const none = await call(harness, 'PUT', path, { staff });
    const unknownFlag = await call(harness, 'PUT', path, { isVerified: true, staff });
    const noStaff = await call(harness, 'PUT', path, { isBoosted: false });
    const unknownUser = await call(harness, 'PUT', '/users/no-such-user/flags', {
      isBoosted: true,
      staff,
    });

    // Assert
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.data?.permissions.isBoosted, true);
    assert.equal(set.body.data?.permissions.isAmbassador, true);
    assert.equal(again.body.data?.version, set.body.data?.version);
    assert.equal(none.status, 400);
    assert.equal(none.body.error?.message, messages.flagsRequired);
    assert.equal(unknownFlag.status, 400);
    assert.equal(noStaff.status, 400);
    assert.equal(unknownUser.status, 404);
    const event = await harness.userEvents.waitFor(
      (m) => keyOf(m) === userId && envelopeOf(m).version === set.body.data?.version,
    );
    assert.equal((envelopeOf(event).data as UserRecord).permissions.isAmbassador, true);
    const entries = await settledAuditEntries(audit.events, userId, 1);
    assert.deepEqual(
      entries.map(({ entry }) => ({ ...entry, id: undefined, at: undefined })),
      [
        {
          id: undefined,
          at: undefined,
          staff,
          action: 'creator.flags',
          target: { kind: 'creator', id: userId, label: set.body.data!.username! },
          reason: null,
          details: { isBoosted: true, isAmbassador: true },
        },
      ],
    );
    assert.deepEqual(
      await settledAuditEntries(audit.events, 'no-such-user', 0, { settleMs: 0 }),
      [],
    );
  });

  test('when only some of the flags change, then the audit entry names only the changed ones', async () => {
    // Arrange
    const { userId } = await registeredCreator(harness);
    const staff = staffMember('admin-2');
    const path = `/users/${userId}/flags`;
    await call<UserRecord>(harness, 'PUT', path, { isBoosted: true, staff });

    // Act
    const changed = await call<UserRecord>(harness, 'PUT', path, {
      isBoosted: true,
      isAmbassador: true,
      staff,
    });

    // Assert
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const entries = await settledAuditEntries(audit.events, userId, 2);
    assert.deepEqual(
      entries.map(({ entry }) => entry.details),
      [{ isBoosted: true }, { isAmbassador: true }],
    );
  });

  test("when the BFF ends users' sessions, then their refresh tokens stop working and unknown users are skipped", async () => {
    // Arrange
    const member = await registeredBrandUser(harness);
    const session = await passwordGrant(harness.stack, member.email, member.password);

    // Act
    const answer = await call<{ ended: number }>(harness, 'POST', '/sessions/end', {
      userIds: [member.userId, 'no-such-user'],
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data, { ended: 1 });
    assert.equal(await harness.users.refreshWorks(session.refresh_token!), false);
  });
});
