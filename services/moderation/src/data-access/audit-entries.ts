/**
 * The audit log's rows (table `audit_entries`, prisma/schema.prisma): inserted once, never changed
 * (a trigger refuses UPDATE and DELETE), read newest first in keyset pages.
 */
import type { AuditEntry, StaffAction } from '@raly/contracts/audit';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { PagePosition } from './pages';

/** Where an entry came from: the envelope that carried it (or that publishes it) and its topic. */
export interface EntrySource {
  eventId: string;
  topic: string;
}

/** Which entries a page holds (every one when empty). */
export interface EntryFilter {
  /** Staff e-mail, target label or target id contains it, ignoring case, taken literally. */
  text?: string;
  action?: StaffAction;
  /** Only entries older than this one (at desc, id desc). */
  after?: PagePosition;
}

export interface AuditEntryStore {
  /**
   * Inserts the entry unless one with its id is stored (INSERT … ON CONFLICT DO NOTHING).
   * @returns true when this call inserted it, false when it was there already
   */
  insert(entry: AuditEntry, source: EntrySource): Promise<boolean>;
  /**
   * The entries `filter` selects, newest first (at desc, then id desc).
   * @param limit most entries answered
   */
  list(filter: EntryFilter, limit: number): Promise<AuditEntry[]>;
}

type AuditEntryRow = Prisma.AuditEntryGetPayload<object>;

/** `%`, `_` and `\` matched literally by ILIKE (PostgreSQL's escape character is a backslash). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

function toAuditEntry(row: AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    staff: { userId: row.staffUserId, email: row.staffEmail },
    action: row.action as StaffAction,
    target: {
      kind: row.targetKind as AuditEntry['target']['kind'],
      id: row.targetId,
      label: row.targetLabel,
    },
    reason: row.reason,
    details: row.details as AuditEntry['details'],
  };
}

/** The row of `entry` as it came from `source`. */
export function auditEntryRowOf(
  entry: AuditEntry,
  source: EntrySource,
): Prisma.AuditEntryCreateManyInput {
  return {
    id: entry.id,
    at: new Date(entry.at),
    staffUserId: entry.staff.userId,
    staffEmail: entry.staff.email,
    action: entry.action,
    targetKind: entry.target.kind,
    targetId: entry.target.id,
    targetLabel: entry.target.label,
    reason: entry.reason,
    details: entry.details,
    eventId: source.eventId,
    topic: source.topic,
  };
}

/** The store over the service's Prisma client. */
export function auditEntryStore(prisma: PrismaClient): AuditEntryStore {
  return {
    async insert(entry, source) {
      const { count } = await prisma.auditEntry.createMany({
        data: auditEntryRowOf(entry, source),
        skipDuplicates: true,
      });
      return count === 1;
    },
    async list(filter, limit) {
      const where: Prisma.AuditEntryWhereInput[] = [];
      if (filter.text) {
        const contains = likeLiteral(filter.text);
        where.push({
          OR: [
            { staffEmail: { contains, mode: 'insensitive' } },
            { targetLabel: { contains, mode: 'insensitive' } },
            { targetId: { contains, mode: 'insensitive' } },
          ],
        });
      }
      if (filter.action) where.push({ action: filter.action });
      if (filter.after)
        where.push({
          OR: [
            { at: { lt: filter.after.at } },
            { at: filter.after.at, id: { lt: filter.after.id } },
          ],
        });
      const rows = await prisma.auditEntry.findMany({
        where: { AND: where },
        orderBy: [{ at: 'desc' }, { id: 'desc' }],
        take: limit,
      });
      return rows.map(toAuditEntry);
    },
  };
}
