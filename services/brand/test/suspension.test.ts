import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes, topics } from '@raly/contracts/events';
import type { BrandSuspension } from '@raly/contracts/internal';
import { messages } from '@raly/contracts/messages';
import type { BrandRecord } from '@raly/contracts/records';
import {
  callApi as call,
  listenToTopic,
  settledAuditEntries,
  type TopicListener,
} from '@raly/test-support';
import { type RalySystem, registeredBrand, startSystem } from '@raly/test-support/system';

let system: RalySystem;
let brandEvents: TopicListener;
let auditEvents: TopicListener;

beforeAll(async () => {
  system = await startSystem();
  brandEvents = await listenToTopic(system.stack.kafkaBrokers, topics.brandBrand);
  auditEvents = await listenToTopic(system.stack.kafkaBrokers, topics.brandAudit);
});

afterAll(async () => {
  await brandEvents.stop();
  await auditEvents?.stop();
  await system.stop();
});

/** A staff member as the BFF names them in a command. */
const staffMember = (name: string) => ({ userId: `${name}-id`, email: `${name}@raly.test` });

/** Calls a staff decision route of services/brand as the BFF (or `serviceToken`'s holder). */
const asBff = <T = unknown>(
  path: string,
  body: unknown,
  serviceToken: () => Promise<string> = system.serviceTokens.bff,
) => call<T>(system.brandUrl, 'PUT', path, { body, serviceToken });

const envelopeOf = (value: Buffer | null) => JSON.parse(value?.toString() ?? '{}');

/** The stored decision columns of a brand. */
async function suspensionRow(brandId: string) {
  const { rows } = await system.sql.brand.query(
    'SELECT is_suspended, suspended_at, suspended_by, suspension_reason FROM brands WHERE id = $1',
    [brandId],
  );
  return rows[0] as {
    is_suspended: boolean;
    suspended_at: Date | null;
    suspended_by: string | null;
    suspension_reason: string | null;
  };
}

describe('suspending a brand (PUT /brands/:id/suspension, the BFF only)', () => {
  test('when the BFF suspends a brand, then the decision is stored with who and why, the answer names the members, brand.brand.updated carries isSuspended and one audit entry records it; the same decision again changes nothing and records nothing', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const staff = staffMember('staff-1');
    const decision = { suspended: true, reason: 'Unpaid creators', staff };

    // Act
    const first = await asBff<BrandSuspension>(`/brands/${brand.brandId}/suspension`, decision);
    const again = await asBff<BrandSuspension>(`/brands/${brand.brandId}/suspension`, decision);

    // Assert
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data?.brand.permissions.isSuspended, true);
    assert.deepEqual(first.body.data?.memberIds, [brand.userId]);
    assert.equal(again.body.data?.brand.version, first.body.data?.brand.version);
    const row = await suspensionRow(brand.brandId);
    assert.equal(row.is_suspended, true);
    assert.equal(row.suspended_by, staff.userId);
    assert.equal(row.suspension_reason, 'Unpaid creators');
    assert.ok(row.suspended_at instanceof Date);
    const event = await brandEvents.waitFor(
      (m) =>
        m.key?.toString() === brand.brandId &&
        envelopeOf(m.value).version === first.body.data?.brand.version,
    );
    const envelope = envelopeOf(event.value);
    assert.equal(envelope.type, eventTypes.brandUpdated);
    assert.equal((envelope.data as BrandRecord).permissions.isSuspended, true);
    const [published, ...more] = await settledAuditEntries(auditEvents, brand.brandId, 1);
    assert.deepEqual(more, []);
    const { key, envelope: auditEnvelope, entry } = published!;
    assert.deepEqual(
      [auditEnvelope.type, auditEnvelope.subject, key, auditEnvelope.version],
      [eventTypes.brandAuditEntryRecorded, entry.id, entry.id, 1],
    );
    assert.deepEqual(
      { ...entry, id: undefined },
      {
        id: undefined,
        at: row.suspended_at!.toISOString(),
        staff,
        action: 'brand.suspend',
        target: { kind: 'brand', id: brand.brandId, label: brand.registration.company },
        reason: 'Unpaid creators',
        details: {},
      },
    );
  });

  test('when the BFF lifts a suspension, then the decision is cleared, the version goes up and the lifting has its own audit entry; lifting again records nothing', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const path = `/brands/${brand.brandId}/suspension`;
    const suspended = await asBff<BrandSuspension>(path, {
      suspended: true,
      reason: 'Spam',
      staff: staffMember('staff-1'),
    });
    const lift = { suspended: false, reason: 'Appeal accepted', staff: staffMember('staff-2') };

    // Act
    const lifted = await asBff<BrandSuspension>(path, lift);
    const liftedAgain = await asBff<BrandSuspension>(path, lift);

    // Assert
    assert.equal(lifted.body.data?.brand.permissions.isSuspended, false);
    assert.equal(lifted.body.data?.brand.version, suspended.body.data!.brand.version + 1);
    assert.equal(liftedAgain.body.data?.brand.version, lifted.body.data?.brand.version);
    assert.deepEqual(Object.values(await suspensionRow(brand.brandId)), [false, null, null, null]);
    const entries = await settledAuditEntries(auditEvents, brand.brandId, 2);
    assert.deepEqual(
      entries.map(({ entry }) => [entry.action, entry.staff, entry.reason]),
      [
        ['brand.suspend', staffMember('staff-1'), 'Spam'],
        ['brand.lift-suspension', staffMember('staff-2'), 'Appeal accepted'],
      ],
    );
  });

  test('when the reason or the staff member is missing, the brand unknown or the caller not the BFF, then 400, 404 and 403, and no audit entry', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const path = `/brands/${brand.brandId}/suspension`;
    const unknownId = randomUUID();
    const staff = staffMember('s');

    // Act
    const noReason = await asBff(path, { suspended: true, reason: '', staff });
    const noStaff = await asBff(path, { suspended: true, reason: 'Spam' });
    const unknown = await asBff(`/brands/${unknownId}/suspension`, {
      suspended: true,
      reason: 'Spam',
      staff,
    });
    const notUuid = await asBff('/brands/nope/suspension', {
      suspended: true,
      reason: 'Spam',
      staff,
    });
    const asMedia = await asBff(
      path,
      { suspended: true, reason: 'Spam', staff },
      system.serviceTokens.media,
    );

    // Assert
    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error?.fields?.reason, messages.suspensionReasonRequired);
    assert.equal(noStaff.status, 400);
    assert.deepEqual([unknown.status, notUuid.status, asMedia.status], [404, 404, 403]);
    assert.equal((await suspensionRow(brand.brandId)).is_suspended, false);
    assert.deepEqual(await settledAuditEntries(auditEvents, brand.brandId, 0), []);
    assert.deepEqual(await settledAuditEntries(auditEvents, unknownId, 0, { settleMs: 0 }), []);
  });
});

describe("a brand's verified badge (PUT /brands/:id/verification, the BFF only)", () => {
  test('when the BFF verifies a brand and later removes the badge, then each decision has one audit entry with its reason; the same decision again records nothing', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const path = `/brands/${brand.brandId}/verification`;
    const staff = staffMember('moderator-1');
    const verify = { isVerified: true, reason: 'Company documents checked', staff };

    // Act
    const verified = await asBff<BrandRecord>(path, verify);
    const again = await asBff<BrandRecord>(path, verify);
    const unverified = await asBff<BrandRecord>(path, {
      isVerified: false,
      reason: 'Documents expired',
      staff,
    });

    // Assert
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.data?.permissions.isVerified, true);
    assert.equal(again.body.data?.version, verified.body.data?.version);
    assert.equal(unverified.body.data?.permissions.isVerified, false);
    const entries = await settledAuditEntries(auditEvents, brand.brandId, 2);
    assert.deepEqual(
      entries.map(({ entry }) => ({ ...entry, id: undefined, at: undefined })),
      [
        { action: 'brand.verify', reason: 'Company documents checked' },
        { action: 'brand.unverify', reason: 'Documents expired' },
      ].map(({ action, reason }) => ({
        id: undefined,
        at: undefined,
        staff,
        action,
        target: { kind: 'brand', id: brand.brandId, label: brand.registration.company },
        reason,
        details: {},
      })),
    );
  });

  test('when the reason or the staff member is missing or the brand unknown, then 400 and 404, the badge unchanged and no audit entry', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const path = `/brands/${brand.brandId}/verification`;
    const unknownId = randomUUID();
    const staff = staffMember('moderator-2');

    // Act
    const noReason = await asBff(path, { isVerified: true, staff });
    const shortReason = await asBff(path, { isVerified: true, reason: ' ok ', staff });
    const noStaff = await asBff(path, { isVerified: true, reason: 'Checked' });
    const unknown = await asBff(`/brands/${unknownId}/verification`, {
      isVerified: true,
      reason: 'Checked',
      staff,
    });

    // Assert
    assert.deepEqual(
      [noReason.status, shortReason.status, noStaff.status, unknown.status],
      [400, 400, 400, 404],
    );
    const { rows } = await system.sql.brand.query('SELECT is_verified FROM brands WHERE id = $1', [
      brand.brandId,
    ]);
    assert.equal(rows[0].is_verified, false);
    assert.deepEqual(await settledAuditEntries(auditEvents, brand.brandId, 0), []);
    assert.deepEqual(await settledAuditEntries(auditEvents, unknownId, 0, { settleMs: 0 }), []);
  });
});

describe("a brand's flags (PUT /brands/:id/flags, the BFF only)", () => {
  test('when the BFF sets isAgency, then the brand and its event carry it and one audit entry records it; again changes nothing and records nothing; no flag, another flag or no staff member is 400', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const path = `/brands/${brand.brandId}/flags`;
    const staff = staffMember('admin-1');

    // Act
    const set = await asBff<BrandRecord>(path, { isAgency: true, staff });
    const again = await asBff<BrandRecord>(path, { isAgency: true, staff });
    const none = await asBff(path, { staff });
    const other = await asBff(path, { isSuspended: true, staff });
    const noStaff = await asBff(path, { isAgency: false });

    // Assert
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.data?.permissions.isAgency, true);
    assert.equal(again.body.data?.version, set.body.data?.version);
    assert.equal(none.status, 400);
    assert.equal(none.body.error?.message, messages.flagsRequired);
    assert.equal(other.status, 400);
    assert.equal(noStaff.status, 400);
    await brandEvents.waitFor(
      (m) =>
        m.key?.toString() === brand.brandId &&
        envelopeOf(m.value).version === set.body.data?.version &&
        envelopeOf(m.value).data.permissions.isAgency === true,
    );
    const entries = await settledAuditEntries(auditEvents, brand.brandId, 1);
    assert.deepEqual(
      entries.map(({ entry }) => ({ ...entry, id: undefined, at: undefined })),
      [
        {
          id: undefined,
          at: undefined,
          staff,
          action: 'brand.flags',
          target: { kind: 'brand', id: brand.brandId, label: brand.registration.company },
          reason: null,
          details: { isAgency: true },
        },
      ],
    );
  });
});
