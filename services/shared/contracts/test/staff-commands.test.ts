import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { auditEntrySchema, newAuditEntry } from '../src/audit';
import {
  brandFlagsCommandSchema,
  brandFlagsDecisionSchema,
  brandVerificationCommandSchema,
  brandVerificationDecisionSchema,
  creatorFlagsCommandSchema,
  creatorFlagsDecisionSchema,
  suspensionCommandSchema,
  suspensionStateOf,
} from '../src/internal';
import { messages } from '../src/messages';

const staff = { userId: 'staff-user-1', email: 'moderator@raly.test' };

describe('the internal staff commands carry the staff member who decided', () => {
  it('when a suspension names its staff member, then it parses and the suspension stores their user id', () => {
    const command = suspensionCommandSchema.parse({ suspended: true, reason: ' Spam ', staff });
    const at = new Date('2026-01-02T03:04:05.000Z');

    assert.deepEqual(command, { suspended: true, reason: 'Spam', staff });
    assert.deepEqual(suspensionStateOf(command, at), {
      isSuspended: true,
      suspendedAt: at,
      suspendedBy: 'staff-user-1',
      suspensionReason: 'Spam',
    });
  });

  it('when a command has no staff member, an incomplete one or a bare staffUserId in its place, then it is refused', () => {
    const withoutStaff = [
      suspensionCommandSchema.safeParse({ suspended: true, reason: 'Spam' }),
      suspensionCommandSchema.safeParse({ suspended: true, reason: 'Spam', staffUserId: 's' }),
      brandVerificationCommandSchema.safeParse({ isVerified: true, reason: 'Checked' }),
      creatorFlagsCommandSchema.safeParse({ isBoosted: true }),
      brandFlagsCommandSchema.safeParse({ isAgency: true }),
      brandFlagsCommandSchema.safeParse({ isAgency: true, staff: { userId: 'staff-user-1' } }),
      brandFlagsCommandSchema.safeParse({ isAgency: true, staff: { ...staff, email: '' } }),
      brandFlagsCommandSchema.safeParse({ isAgency: true, staff: { ...staff, role: 'admin' } }),
    ];

    assert.deepEqual(
      withoutStaff.map((result) => result.success),
      withoutStaff.map(() => false),
    );
  });

  it('when a verification carries its reason, then the command keeps it; a reason under 3 characters is refused', () => {
    const command = brandVerificationCommandSchema.parse({
      isVerified: false,
      reason: '  Documents expired ',
      staff,
    });

    assert.deepEqual(command, { isVerified: false, reason: 'Documents expired', staff });
    const refusedPaths = [
      brandVerificationCommandSchema.safeParse({ isVerified: true, reason: ' ok ', staff }),
      brandVerificationDecisionSchema.safeParse({ isVerified: true }),
    ].map((result) => result.error?.issues.map((issue) => issue.path.join('.')));
    assert.deepEqual(refusedPaths, [['reason'], ['reason']]);
    assert.equal(
      brandVerificationDecisionSchema.safeParse({ isVerified: true, reason: 'Fine' }).success,
      true,
    );
  });

  it('when a flags command names only its staff member, then it is refused with "Set at least one flag." (staff is no flag)', () => {
    const creatorFlags = creatorFlagsCommandSchema.safeParse({ staff });
    const brandFlags = brandFlagsCommandSchema.safeParse({ staff });

    assert.equal(creatorFlags.error?.issues[0]?.message, messages.flagsRequired);
    assert.equal(brandFlags.error?.issues[0]?.message, messages.flagsRequired);
    assert.deepEqual(creatorFlagsCommandSchema.parse({ isAmbassador: false, staff }), {
      isAmbassador: false,
      staff,
    });
  });

  it('when the console sends flags, then the decision takes the flags alone: a staff member there is refused', () => {
    assert.deepEqual(creatorFlagsDecisionSchema.parse({ isBoosted: true }), { isBoosted: true });
    assert.deepEqual(brandFlagsDecisionSchema.parse({ isAgency: false }), { isAgency: false });
    assert.equal(
      creatorFlagsDecisionSchema.safeParse({}).error?.issues[0]?.message,
      messages.flagsRequired,
    );
    assert.equal(brandFlagsDecisionSchema.safeParse({ isAgency: true, staff }).success, false);
  });
});

describe('an audit entry', () => {
  it('when a decision is made an entry, then it gets a new uuid and the decision as recorded, on the target given', () => {
    const decision = {
      staff,
      at: new Date('2026-01-02T03:04:05.000Z'),
      action: 'brand.verify' as const,
      reason: 'Documents checked',
      details: {},
    };
    const target = { kind: 'brand' as const, id: 'brand-1', label: 'Acme' };

    const [first, second] = [newAuditEntry(decision, target), newAuditEntry(decision, target)];

    assert.deepEqual(auditEntrySchema.parse(first), {
      id: first!.id,
      at: '2026-01-02T03:04:05.000Z',
      staff,
      action: 'brand.verify',
      target,
      reason: 'Documents checked',
      details: {},
    });
    assert.notEqual(first!.id, second!.id);
  });

  it('when an entry names its staff member, action, target and details, then it parses; an unknown action is refused', () => {
    const entry = {
      id: '0b7c1f4e-6f0a-4a53-9a4e-0f6f1b2f7c11',
      at: '2026-01-02T03:04:05.000Z',
      staff,
      action: 'creator.flags',
      target: { kind: 'creator', id: 'user-1', label: 'maya21' },
      reason: null,
      details: { isBoosted: true },
    };

    assert.deepEqual(auditEntrySchema.parse(entry), entry);
    assert.equal(auditEntrySchema.safeParse({ ...entry, action: 'creator.delete' }).success, false);
  });
});
