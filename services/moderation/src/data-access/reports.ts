/**
 * The reports' rows (table `reports`, prisma/schema.prisma) and their snapshots: each change is
 * written with its events in one transaction (the kit's event writer), the version growing by 1;
 * read in keyset pages.
 */
import type { AuditEntry } from '@raly/contracts/audit';
import type { ReportRecord, ReportResolution, ReportStatus } from '@raly/contracts/reports';
import type { EventWriter, OutboxTransactionClient, RaiseEvent } from '@raly/service-kit/outbox';
import type { Prisma, PrismaClient, Report } from '../generated/prisma/client';
import { auditEntryRowOf } from './audit-entries';
import type { PagePosition } from './pages';

/** A transaction of the service's client that can record events. */
export type ModerationTransaction = Prisma.TransactionClient & OutboxTransactionClient;

/** A report as opened: everything but what the database assigns (version, times, status). */
export interface NewReport {
  id: string;
  reporterUserId: string;
  item: ReportRecord['item'];
  accused: ReportRecord['accused'];
  reason: ReportRecord['reason'];
  note: string;
}

/** What resolving a report writes besides the report: its audit entry and that entry's event. */
export interface ResolutionEffects {
  /**
   * Decides, on the locked current report, whether to resolve it.
   * @returns false to change nothing (the same resolution again)
   * @throws what refuses the resolution (the transaction is rolled back)
   */
  decide(current: ReportRecord): boolean;
  /** The snapshot event of the resolved report. */
  raise: RaiseEvent<ReportRecord>;
  /** The audit entry of the resolution, for the resolved report. */
  auditEntryOf(report: ReportRecord): AuditEntry;
  /** The event that publishes the entry. */
  raiseAuditEntry: RaiseEvent<AuditEntry>;
}

export interface ReportStore {
  /**
   * Inserts the report with its event unless its reporter already reported the item (INSERT …
   * ON CONFLICT DO NOTHING on the unique reporter and item: of concurrent attempts, one inserts).
   * @returns the report, version 1; null when the reporter already reported the item
   */
  open(report: NewReport, raise: RaiseEvent<ReportRecord>): Promise<ReportRecord | null>;
  /** @returns the report, or null when none has this id (a uuid) */
  find(id: string): Promise<ReportRecord | null>;
  /**
   * Reports of one status, in the queue's order: open ones oldest first (created, id), resolved
   * ones newest resolution first (resolved at, id, descending), after `after` when given.
   * @param limit most reports answered
   */
  listByStatus(
    status: ReportStatus,
    after: PagePosition | undefined,
    limit: number,
  ): Promise<ReportRecord[]>;
  /**
   * One reporter's reports, newest first (created, id, descending), after `after` when given.
   * @param limit most reports answered
   */
  listOfReporter(
    reporterUserId: string,
    after: PagePosition | undefined,
    limit: number,
  ): Promise<ReportRecord[]>;
  /**
   * Resolves the report in one transaction: locks its row, lets `effects.decide` judge it, then
   * writes the resolution (version + 1), its snapshot event, the audit entry's row and the
   * entry's event.
   * @returns the report after the call (unchanged when `decide` said so); null when none has this id
   */
  resolve(
    id: string,
    resolution: ReportResolution,
    effects: ResolutionEffects,
  ): Promise<ReportRecord | null>;
}

/** A report row as its snapshot. */
export function toReportRecord(row: Report): ReportRecord {
  return {
    id: row.id,
    version: row.version,
    reporterUserId: row.reporterUserId,
    item: {
      kind: row.itemKind as ReportRecord['item']['kind'],
      id: row.itemId,
      label: row.itemLabel,
    },
    accused: { kind: row.accusedKind as ReportRecord['accused']['kind'], id: row.accusedId },
    reason: row.reason as ReportRecord['reason'],
    note: row.note,
    status: row.status as ReportStatus,
    // The migration's CHECK keeps the resolution columns all null or all set.
    resolution:
      row.resolutionOutcome === null
        ? null
        : {
            outcome: row.resolutionOutcome as ReportResolution['outcome'],
            note: row.resolutionNote!,
            staff: { userId: row.resolvedByUserId!, email: row.resolvedByEmail! },
            at: row.resolvedAt!.toISOString(),
          },
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/** Rows after `after` in an ascending (`gt`) or descending (`lt`) order of `column`, then id. */
function after(
  column: 'created' | 'resolvedAt',
  direction: 'gt' | 'lt',
  position: PagePosition | undefined,
): Prisma.ReportWhereInput {
  if (!position) return {};
  return {
    OR: [
      { [column]: { [direction]: position.at } },
      { [column]: position.at, id: { [direction]: position.id } },
    ],
  };
}

/**
 * The store over the service's Prisma client.
 * @param events the service's event writer (the kit's `createEventWriter`)
 */
export function reportStore(
  prisma: PrismaClient,
  events: EventWriter<ModerationTransaction>,
): ReportStore {
  return {
    open(report, raise) {
      return events.transaction(async (tx, record) => {
        const [row] = await tx.report.createManyAndReturn({
          data: {
            id: report.id,
            reporterUserId: report.reporterUserId,
            itemKind: report.item.kind,
            itemId: report.item.id,
            itemLabel: report.item.label,
            accusedKind: report.accused.kind,
            accusedId: report.accused.id,
            reason: report.reason,
            note: report.note,
          },
          skipDuplicates: true,
        });
        if (!row) return null;
        const opened = toReportRecord(row);
        await record(raise(opened));
        return opened;
      });
    },
    async find(id) {
      const row = await prisma.report.findUnique({ where: { id } });
      return row && toReportRecord(row);
    },
    async listByStatus(status, position, limit) {
      const rows =
        status === 'open'
          ? await prisma.report.findMany({
              where: { AND: [{ status }, after('created', 'gt', position)] },
              orderBy: [{ created: 'asc' }, { id: 'asc' }],
              take: limit,
            })
          : await prisma.report.findMany({
              where: { AND: [{ status }, after('resolvedAt', 'lt', position)] },
              orderBy: [{ resolvedAt: 'desc' }, { id: 'desc' }],
              take: limit,
            });
      return rows.map(toReportRecord);
    },
    async listOfReporter(reporterUserId, position, limit) {
      const rows = await prisma.report.findMany({
        where: { AND: [{ reporterUserId }, after('created', 'lt', position)] },
        orderBy: [{ created: 'desc' }, { id: 'desc' }],
        take: limit,
      });
      return rows.map(toReportRecord);
    },
    resolve(id, resolution, effects) {
      return events.transaction(async (tx, record) => {
        // The row lock orders concurrent resolutions: the second sees the first's outcome.
        const locked = await tx.$queryRaw<
          { id: string }[]
        >`SELECT id FROM reports WHERE id = ${id}::uuid FOR UPDATE`;
        if (locked.length === 0) return null;
        const current = toReportRecord(await tx.report.findUniqueOrThrow({ where: { id } }));
        if (!effects.decide(current)) return current;
        const resolved = toReportRecord(
          await tx.report.update({
            where: { id },
            data: {
              status: 'resolved',
              resolutionOutcome: resolution.outcome,
              resolutionNote: resolution.note,
              resolvedByUserId: resolution.staff.userId,
              resolvedByEmail: resolution.staff.email,
              resolvedAt: new Date(resolution.at),
              updated: new Date(resolution.at),
              version: { increment: 1 },
            },
          }),
        );
        const entry = effects.auditEntryOf(resolved);
        const entryEvent = effects.raiseAuditEntry(entry);
        await tx.auditEntry.create({
          data: auditEntryRowOf(entry, { eventId: entryEvent.id, topic: entryEvent.topic }),
        });
        await record(effects.raise(resolved), entryEvent);
        return resolved;
      });
    },
  };
}
