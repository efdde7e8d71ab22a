/**
 * Staff viewing contact details in the console (docs/console.md "Contact details"), asked by the
 * BFF: a creator's e-mail and names, or each member of a brand with whether they are its admin.
 * Every view is a fact the audit log keeps: the answer is read and its `contact.view` audit entry
 * recorded on `identity.audit.v1` in one transaction, on every call (no idempotency: each look
 * counts). Nothing else changes and no snapshot goes out.
 */
import { newAuditEntry, type AuditTarget, type StaffDecision } from '@raly/contracts/audit';
import {
  brandContactViewCommandSchema,
  creatorContactViewCommandSchema,
  type BrandContactView,
  type CreatorContactView,
} from '@raly/contracts/internal';
import type { UserRecord } from '@raly/contracts/records';
import type { OutboxRow } from '@raly/service-kit/outbox';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { auditEntryRecordedEvent } from './events';
import { isCreator } from './staff-decisions';

/** A name part as the contact view shows it: null when the record holds none. */
const namePart = (value: string): string | null => value || null;

/** The `contact.view` audit entry of a view by `staff`, for `reason`, on `target`. */
function contactViewEntry(
  command: { staff: StaffDecision['staff']; reason: string },
  target: AuditTarget,
): OutboxRow {
  return auditEntryRecordedEvent(
    newAuditEntry(
      {
        staff: command.staff,
        at: new Date(),
        action: 'contact.view',
        reason: command.reason,
        details: {},
      },
      target,
    ),
  );
}

/**
 * `POST /users/:id/contact-view` (internal, the BFF): a creator's contact details, with the
 * view's audit entry (`contact.view` on the creator, labelled with their username).
 * @param input `creatorContactViewCommandSchema` `{ reason, staff }`, unparsed
 * @returns the creator's e-mail and names (null where the record has none)
 * @throws AppError invalid-argument (the body), not-found 'No such creator.' (an unknown id or a
 *   brand-side user: no entry is written)
 */
export async function viewCreatorContact(
  dependencies: Pick<IdentityDependencies, 'users' | 'logger'>,
  id: string,
  input: unknown,
): Promise<CreatorContactView> {
  const command = creatorContactViewCommandSchema.parse(input);
  const [creator] = await dependencies.users.readWithEvent({ id }, ([user]) =>
    user && isCreator(user)
      ? contactViewEntry(command, { kind: 'creator', id, label: user.username ?? '' })
      : null,
  );
  if (!creator || !isCreator(creator)) throw identityErrors.noSuchCreator();
  dependencies.logger.info(
    { userId: id, staffUserId: command.staff.userId },
    'creator contact details viewed',
  );
  return {
    kind: 'creator',
    id,
    email: creator.email,
    firstName: namePart(creator.firstName),
    lastName: namePart(creator.lastName),
  };
}

/**
 * `POST /brands/:brandId/contact-view` (internal, the BFF): the contact details of a brand's
 * members, as the user records know them by brand id, with the view's audit entry (`contact.view`
 * on the brand, labelled with the company the BFF read from the brand service).
 * @param input `brandContactViewCommandSchema` `{ reason, staff, company }`, unparsed
 * @returns each member's e-mail, names and admin role, admins first
 * @throws AppError invalid-argument (the body), not-found 'No such brand.' (no member has this
 *   brand id: no entry is written)
 */
export async function viewBrandContacts(
  dependencies: Pick<IdentityDependencies, 'users' | 'logger'>,
  brandId: string,
  input: unknown,
): Promise<BrandContactView> {
  const command = brandContactViewCommandSchema.parse(input);
  const members = await dependencies.users.readWithEvent({ brandId }, (users) =>
    users.length > 0
      ? contactViewEntry(command, { kind: 'brand', id: brandId, label: command.company })
      : null,
  );
  if (members.length === 0) throw identityErrors.noSuchBrand();
  dependencies.logger.info(
    { brandId, staffUserId: command.staff.userId, members: members.length },
    'brand contact details viewed',
  );
  return { kind: 'brand', id: brandId, members: members.map(brandContactOf) };
}

/** A member's record as the brand's contact view shows it. */
const brandContactOf = (member: UserRecord): BrandContactView['members'][number] => ({
  userId: member.id,
  email: member.email,
  firstName: namePart(member.firstName),
  lastName: namePart(member.lastName),
  isAdmin: member.brand?.isAdmin ?? false,
});
