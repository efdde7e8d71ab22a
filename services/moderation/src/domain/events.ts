/**
 * The integration events the moderation service raises: a report's whole snapshot
 * (`ReportRecord`) on `moderation.report.v1`, key = the report's id, with its version, after every
 * change; and the audit entry of each report staff resolve on `moderation.audit.v1`, key = the
 * entry's id, version 1.
 */
import { auditEntrySchema, type AuditEntry } from '@raly/contracts/audit';
import { eventTypes, topics } from '@raly/contracts/events';
import { reportRecordSchema, type ReportRecord } from '@raly/contracts/reports';
import {
  newOutboxMessage,
  snapshotEventOf,
  type OutboxRow,
  type RaiseEvent,
} from '@raly/service-kit/outbox';

export const eventSource = 'raly/moderation';

const reportEvent = snapshotEventOf<ReportRecord>({
  topic: topics.moderationReport,
  source: eventSource,
  schema: reportRecordSchema,
});

/** `moderation.report.opened`: a person reported an item. */
export const reportOpenedEvent = reportEvent(eventTypes.reportOpened);

/** `moderation.report.updated`: staff resolved the report. */
export const reportUpdatedEvent = reportEvent(eventTypes.reportUpdated);

/**
 * `moderation.audit-entry.recorded`: the staff action of a resolution, as identity-profile and
 * brand record theirs (an entry is immutable: always version 1).
 * @throws ZodError when the entry does not match `auditEntrySchema`
 */
export const auditEntryRecordedEvent: RaiseEvent<AuditEntry> = (entry): OutboxRow => {
  const message = newOutboxMessage({
    topic: topics.moderationAudit,
    type: eventTypes.moderationAuditEntryRecorded,
    source: eventSource,
    subject: entry.id,
    version: 1,
    data: auditEntrySchema.parse(entry),
  });
  return { ...message, envelope: message.envelope };
};
