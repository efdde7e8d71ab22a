/**
 * The staff audit log (docs/console.md "Audit log"): each entry the consumer receives is kept once,
 * and staff search the entries newest first, a page at a time. Entries of resolved reports are
 * kept with the resolution (./reports).
 */
import {
  AUDIT_PAGE_SIZE,
  auditQuerySchema,
  staffActionTargets,
  type AuditEntry,
  type AuditPage,
} from '@raly/contracts/audit';
import type { Envelope } from '@raly/contracts/envelope';
import { PoisonEventError } from '@raly/service-kit/consumer';
import { keysetPage } from './cursor';
import type { ModerationDependencies } from './dependencies';

/**
 * Keeps one audit entry of `identity.audit-entry.recorded` or `brand.audit-entry.recorded`; a
 * redelivered entry (same id) changes nothing.
 * @param topic the topic that carried it
 * @param event the envelope, its data checked by `auditEntrySchema`
 * @throws PoisonEventError when the entry contradicts itself (an action on a kind of target it is
 *   never taken on, `staffActionTargets`, or an envelope whose subject is not the entry's id):
 *   dead-lettered at once
 */
export async function recordAuditEntry(
  dependencies: ModerationDependencies,
  topic: string,
  event: Envelope<AuditEntry>,
): Promise<void> {
  const entry = event.data;
  if (!staffActionTargets[entry.action].includes(entry.target.kind))
    throw new PoisonEventError(
      `audit entry ${entry.id}: action ${entry.action} on a ${entry.target.kind}`,
    );
  if (event.subject !== entry.id)
    throw new PoisonEventError(
      `audit entry ${entry.id} in an envelope of subject ${event.subject}`,
    );
  const inserted = await dependencies.auditEntries.insert(entry, { eventId: event.id, topic });
  if (!inserted)
    dependencies.logger.debug({ entryId: entry.id, eventId: event.id }, 'audit entry already kept');
}

/**
 * `GET /audit-entries?query=&action=&before=` (internal, the BFF for the console's audit log): one
 * page of entries, newest first (at desc, id desc), of `AUDIT_PAGE_SIZE` entries at most.
 * @param input the request's query string (`auditQuerySchema`), unparsed
 * @returns the entries whose staff e-mail, target label or target id contains `query` (ignoring
 *   case, `%` and `_` taken literally), of `action` when given, older than the entry `before`
 *   names; `nextBefore` is the cursor of the page's last entry when older ones exist, else null
 * @throws AppError invalid-argument (a query over 100 characters, an unknown action, a repeated
 *   or unknown parameter, a malformed cursor)
 */
export async function searchAuditLog(
  dependencies: ModerationDependencies,
  input: unknown,
): Promise<AuditPage> {
  const query = auditQuerySchema.parse(input);
  const page = await keysetPage(
    query.before,
    AUDIT_PAGE_SIZE,
    (after, limit) =>
      dependencies.auditEntries.list(
        { text: query.query || undefined, action: query.action, after },
        limit,
      ),
    (entry) => entry.at,
  );
  return { entries: page.rows, nextBefore: page.nextBefore };
}
