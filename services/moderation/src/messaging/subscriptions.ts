/**
 * Everything the moderation service consumes, one line per event type and handler: the audit
 * entries identity-profile (creators) and brand (brands) record for each staff action.
 */
import { auditEntrySchema, type AuditEntry } from '@raly/contracts/audit';
import type { Envelope } from '@raly/contracts/envelope';
import { eventTypes, topics } from '@raly/contracts/events';
import { on, type Subscription } from '@raly/service-kit/consumer';
import { recordAuditEntry } from '../domain/audit-log';
import type { ModerationDependencies } from '../domain/dependencies';

/** @returns the consumer's subscription list */
export function subscriptions(dependencies: ModerationDependencies): Subscription[] {
  const record = (topic: string) => (event: Envelope<AuditEntry>) =>
    recordAuditEntry(dependencies, topic, event);
  return [
    on(
      topics.identityAudit,
      eventTypes.identityAuditEntryRecorded,
      auditEntrySchema,
      record(topics.identityAudit),
    ),
    on(
      topics.brandAudit,
      eventTypes.brandAuditEntryRecorded,
      auditEntrySchema,
      record(topics.brandAudit),
    ),
  ];
}
