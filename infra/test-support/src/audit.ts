/**
 * The staff audit log as tests read it off Kafka (docs/console.md "Audit log"): the entries a
 * listener on an audit topic (`identity.audit.v1`, `brand.audit.v1`) received for one target,
 * with the message key and envelope they came in, so a test checks both the entry and how it
 * was published.
 */
import { auditEntrySchema, type AuditEntry } from '@raly/contracts/audit';
import type { Envelope } from '@raly/contracts/envelope';
import { envelopeOf, eventually, sleep, type TopicListener } from '@raly/test-stack';

/** One audit entry as it was published. */
export interface PublishedAuditEntry {
  /** The Kafka message key (the entry's id). */
  key: string;
  envelope: Envelope<AuditEntry>;
  /** The envelope's data, checked against `auditEntrySchema`. */
  entry: AuditEntry;
}

/**
 * The audit entries `listener` received so far whose target is `targetId`, oldest first (by
 * their `at`, then arrival).
 * @throws ZodError when an entry for the target does not match `auditEntrySchema`
 */
export function auditEntriesFor(listener: TopicListener, targetId: string): PublishedAuditEntry[] {
  return listener.messages
    .map((message) => ({
      key: message.key?.toString() ?? '',
      envelope: envelopeOf<AuditEntry>(message),
    }))
    .filter(({ envelope }) => envelope.data?.target?.id === targetId)
    .map((published) => ({ ...published, entry: auditEntrySchema.parse(published.envelope.data) }))
    .sort((a, b) => a.entry.at.localeCompare(b.entry.at));
}

/**
 * Waits until at least `count` audit entries for `targetId` have arrived, then `settleMs` more,
 * so that an entry that should not exist (a repeated or refused decision's) has had the time to
 * arrive too.
 * @param count the entries expected (0: only the settling wait)
 * @param options timeoutMs for the first `count` (default 15 000), settleMs (default 1 500)
 * @returns every entry for the target after the wait, oldest first
 * @throws Error when fewer than `count` arrive in time
 */
export async function settledAuditEntries(
  listener: TopicListener,
  targetId: string,
  count: number,
  { timeoutMs = 15_000, settleMs = 1_500 }: { timeoutMs?: number; settleMs?: number } = {},
): Promise<PublishedAuditEntry[]> {
  await eventually(
    `${count} audit entries on ${targetId}`,
    () => auditEntriesFor(listener, targetId).length >= count,
    { timeoutMs, intervalMs: 50 },
  );
  await sleep(settleMs);
  return auditEntriesFor(listener, targetId);
}
