/**
 * Staff viewing contact details (docs/console.md "Contact details"): identity-profile's internal
 * `POST /users/:id/contact-view` and `POST /brands/:brandId/contact-view`, for the BFF only. Each
 * view answers the details and puts one `contact.view` audit entry on identity.audit.v1.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { ContactView } from '@raly/contracts/internal';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import { callApi, serviceTokenOf, settledAuditEntries, uniqueToken } from '@raly/test-support';
import { openIdentityDatabase } from '../src/data-access/database';
import { newBrandUser } from '../src/domain/accounts';
import { userCreatedEvent } from '../src/domain/events';
import {
  call,
  registeredBrandUser,
  registeredCreator,
  staffMember,
  useAuditEvents,
  useIdentityService,
  usersOf,
} from './support';

const harness = useIdentityService();
const audit = useAuditEvents(harness);

describe("a creator's contact details (POST /users/:id/contact-view, the BFF only)", () => {
  test('when the BFF asks twice, then each answer holds the e-mail and names and each view puts its own audit entry on identity.audit.v1', async () => {
    // Arrange
    const { registration, userId } = await registeredCreator(harness);
    await harness.sql.query(`UPDATE users SET first_name = 'Cleo', last_name = '' WHERE id = $1`, [
      userId,
    ]);
    const staff = staffMember('viewer-1');
    const path = `/users/${userId}/contact-view`;

    // Act
    const first = await call<ContactView>(harness, 'POST', path, { reason: 'Payout query', staff });
    const second = await call<ContactView>(harness, 'POST', path, {
      reason: 'Follow-up call',
      staff,
    });

    // Assert
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data, {
      kind: 'creator',
      id: userId,
      email: registration.email.toLowerCase(),
      firstName: 'Cleo',
      lastName: null,
    });
    assert.equal(second.status, 200);
    const entries = await settledAuditEntries(audit.events, userId, 2);
    assert.equal(entries.length, 2);
    const [{ key, envelope, entry }] = entries as [(typeof entries)[number]];
    assert.deepEqual(
      [envelope.type, envelope.subject, key, envelope.version],
      [eventTypes.identityAuditEntryRecorded, entry.id, entry.id, 1],
    );
    assert.deepEqual(
      entries.map(({ entry: { id: _id, at: _at, ...rest } }) => rest),
      ['Payout query', 'Follow-up call'].map((reason) => ({
        staff,
        action: 'contact.view',
        target: { kind: 'creator', id: userId, label: registration.username },
        reason,
        details: {},
      })),
    );
    const { rows } = await harness.sql.query<{ version: number }>(
      'SELECT version FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(rows[0]?.version, 1, 'a view changes nothing on the record');
  });

  test('when the id is unknown or a brand member, the reason missing or short, or the caller not the BFF, then 404, 400, 401 and 403 with no audit entry', async () => {
    // Arrange
    const { userId } = await registeredCreator(harness);
    const member = await registeredBrandUser(harness);
    const body = { reason: 'Payout query', staff: staffMember('viewer-2') };
    const path = `/users/${userId}/contact-view`;

    // Act
    const unknown = await call(harness, 'POST', '/users/no-such-user/contact-view', body);
    const brandSide = await call(harness, 'POST', `/users/${member.userId}/contact-view`, body);
    const noReason = await call(harness, 'POST', path, { staff: body.staff });
    const shortReason = await call(harness, 'POST', path, { ...body, reason: ' ab ' });
    const noStaff = await call(harness, 'POST', path, { reason: body.reason });
    const noToken = await callApi(harness.baseUrl, 'POST', path, { body });
    const asBrand = await callApi(harness.baseUrl, 'POST', path, {
      body,
      serviceToken: serviceTokenOf(harness.stack, 'brand'),
    });

    // Assert
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error?.message, 'No such creator.');
    assert.equal(brandSide.status, 404);
    assert.equal(brandSide.body.error?.message, 'No such creator.');
    assert.equal(noReason.status, 400);
    assert.equal(shortReason.status, 400);
    assert.equal(shortReason.body.error?.fields?.reason, messages.contactViewReasonRequired);
    assert.equal(noStaff.status, 400);
    assert.equal(noToken.status, 401);
    assert.equal(asBrand.status, 403);
    assert.deepEqual(await settledAuditEntries(audit.events, userId, 0), []);
    for (const target of ['no-such-user', member.userId])
      assert.deepEqual(await settledAuditEntries(audit.events, target, 0, { settleMs: 0 }), []);
  });
});

describe("a brand's contact details (POST /brands/:brandId/contact-view, the BFF only)", () => {
  /** Two members of a new brand (an admin and a member), written as the brand flows leave them. */
  async function brandWithMembers() {
    const token = uniqueToken(10);
    const brandId = `brand-${token}`;
    const admin = { id: `admin-${token}`, email: `admin-${token}@raly.test` };
    const member = { id: `member-${token}`, email: `member-${token}@raly.test` };
    const database = openIdentityDatabase(harness.database.url);
    try {
      const users = usersOf(database);
      await users.insertWithEvent(
        newBrandUser({ ...admin, firstName: 'Ada', lastName: 'Admin', brandId }),
        userCreatedEvent,
      );
      await users.insertWithEvent(
        {
          ...newBrandUser({ ...member, firstName: '', lastName: '', brandId }),
          brandIsAdmin: false,
        },
        userCreatedEvent,
      );
    } finally {
      await database.close();
    }
    return { brandId, admin, member };
  }

  test('when the BFF asks, then the answer lists each member with e-mail, names and admin role, and one audit entry names the brand by the company given', async () => {
    // Arrange
    const { brandId, admin, member } = await brandWithMembers();
    const staff = staffMember('viewer-3');

    // Act
    const answer = await call<ContactView>(harness, 'POST', `/brands/${brandId}/contact-view`, {
      reason: 'Invoice dispute',
      staff,
      company: 'Acme Studio',
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data, {
      kind: 'brand',
      id: brandId,
      members: [
        {
          userId: admin.id,
          email: admin.email,
          firstName: 'Ada',
          lastName: 'Admin',
          isAdmin: true,
        },
        { userId: member.id, email: member.email, firstName: null, lastName: null, isAdmin: false },
      ],
    });
    const entries = await settledAuditEntries(audit.events, brandId, 1);
    assert.deepEqual(
      entries.map(({ entry: { id: _id, at: _at, ...rest } }) => rest),
      [
        {
          staff,
          action: 'contact.view',
          target: { kind: 'brand', id: brandId, label: 'Acme Studio' },
          reason: 'Invoice dispute',
          details: {},
        },
      ],
    );
  });

  test('when no member has the brand id, or the company is missing, then 404 and 400 with no audit entry', async () => {
    // Arrange
    const { brandId } = await brandWithMembers();
    const body = { reason: 'Invoice dispute', staff: staffMember('viewer-4'), company: 'Acme' };

    // Act
    const unknown = await call(harness, 'POST', '/brands/no-such-brand/contact-view', body);
    const noCompany = await call(harness, 'POST', `/brands/${brandId}/contact-view`, {
      reason: body.reason,
      staff: body.staff,
    });

    // Assert
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error?.message, 'No such brand.');
    assert.equal(noCompany.status, 400);
    assert.deepEqual(await settledAuditEntries(audit.events, brandId, 0), []);
    assert.deepEqual(
      await settledAuditEntries(audit.events, 'no-such-brand', 0, { settleMs: 0 }),
      [],
    );
  });
});
