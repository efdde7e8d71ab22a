/**
 * The integration events the brand service raises: on `brand.brand.v1` (key = brand id) the
 * whole BrandRecord snapshot with its version; on `brand.team.v1` the team's; on
 * `brand.audit.v1` the audit entry of each staff decision on a brand (docs/console.md
 * "Audit log"). Each use
 * case that changes a brand names the event it raises by handing one of
 * these to the repository (`dependencies.brands.updateWithEvent(id, changes,
 * brandUpdatedEvent)`); the repository calls it with the snapshot its write
 * produced and inserts the outbox row in the same transaction.
 */
import { auditEntrySchema, type AuditEntry } from '@raly/contracts/audit';
import { eventTypes, topics } from '@raly/contracts/events';
import { brandRecordSchema, type BrandRecord } from '@raly/contracts/records';
import { teamRecordSchema, type TeamRecord } from '@raly/contracts/teams';
import { newOutboxMessage, snapshotEventOf, type OutboxRow } from '@raly/service-kit/outbox';

export const eventSource = 'raly/brand';

const brandEvent = snapshotEventOf<BrandRecord>({
  topic: topics.brandBrand,
  source: eventSource,
  schema: brandRecordSchema,
});

/** `brand.brand.created`: a new brand's snapshot. */
export const brandCreatedEvent = brandEvent(eventTypes.brandCreated);

/** `brand.brand.updated`: a changed brand's snapshot. */
export const brandUpdatedEvent = brandEvent(eventTypes.brandUpdated);

/** `brand.team.updated` (topic `brand.team.v1`, key = brand id): a changed team's snapshot. */
export const teamUpdatedEvent = snapshotEventOf<TeamRecord>({
  topic: topics.brandTeam,
  source: eventSource,
  schema: teamRecordSchema,
})(eventTypes.teamUpdated);

/**
 * `brand.audit-entry.recorded` (topic `brand.audit.v1`, key and subject = the entry's id,
 * version 1: an entry never changes): a staff decision's audit entry, recorded in the decision's
 * transaction.
 * @throws ZodError when the entry does not match `auditEntrySchema`
 */
export const auditEntryRecordedEvent = (entry: AuditEntry): OutboxRow =>
  newOutboxMessage({
    topic: topics.brandAudit,
    type: eventTypes.brandAuditEntryRecorded,
    source: eventSource,
    subject: entry.id,
    version: 1,
    data: auditEntrySchema.parse(entry),
  });
