/**
 * The integration events identity-profile raises: on `identity.user.v1` (key = user id) the
 * whole UserRecord snapshot with its version; on `identity.audit.v1` the audit entry of each
 * staff decision on a creator (docs/console.md "Audit log"). Each use
 * case that changes a user names the event it raises by handing one of these
 * to the repository (`dependencies.users.updateWithEvent(id, changes,
 * userUpdatedEvent)`); the repository calls it with the snapshot its write
 * produced and inserts the outbox row in the same transaction.
 */
import { auditEntrySchema, type AuditEntry } from '@raly/contracts/audit';
import { eventTypes, topics } from '@raly/contracts/events';
import { userRecordSchema, type UserRecord } from '@raly/contracts/records';
import { newOutboxMessage, snapshotEventOf, type OutboxRow } from '@raly/service-kit/outbox';

export const eventSource = 'raly/identity-profile';

const userEvent = snapshotEventOf<UserRecord>({
  topic: topics.identityUser,
  source: eventSource,
  schema: userRecordSchema,
});

/** `identity.user.created`: a new user's snapshot. */
export const userCreatedEvent = userEvent(eventTypes.userCreated);

/** `identity.user.updated`: a changed user's snapshot. */
export const userUpdatedEvent = userEvent(eventTypes.userUpdated);

/**
 * `identity.audit-entry.recorded` (topic `identity.audit.v1`, key and subject = the entry's id,
 * version 1: an entry never changes): a staff decision's audit entry, recorded in the decision's
 * transaction.
 * @throws ZodError when the entry does not match `auditEntrySchema`
 */
export const auditEntryRecordedEvent = (entry: AuditEntry): OutboxRow =>
  newOutboxMessage({
    topic: topics.identityAudit,
    type: eventTypes.identityAuditEntryRecorded,
    source: eventSource,
    subject: entry.id,
    version: 1,
    data: auditEntrySchema.parse(entry),
  });
