/**
 * Reports (docs/console.md "Reports"): a signed-in person reports an offer, a public profile or a
 * collaboration message once; staff work through the open reports oldest first and resolve each
 * once, which is a staff action of the audit log. Every change raises the report's snapshot.
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '@raly/contracts/audit';
import {
  REPORT_PAGE_SIZE,
  myReportsQuerySchema,
  openReportCommandSchema,
  reportQueueQuerySchema,
  resolveReportCommandSchema,
  type ReportPage,
  type ReportRecord,
  type ReportResolution,
} from '@raly/contracts/reports';
import type { ModerationDependencies } from './dependencies';
import { keysetPage } from './cursor';
import { moderationErrors } from './errors';
import { auditEntryRecordedEvent, reportOpenedEvent, reportUpdatedEvent } from './events';

/** True for a canonical uuid: anything else names no report. */
const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/**
 * `POST /reports` (internal, the BFF for a signed-in person): opens a report, raising
 * `moderation.report.opened`.
 * @param input the body (`openReportCommandSchema`), unparsed
 * @returns the report, open, version 1
 * @throws AppError invalid-argument with the rule's message ('Choose a reason for the report.',
 *   'Tell us what is wrong in the note.', 'The note must not exceed 1000 characters.'); conflict
 *   'You have already reported this.' when the reporter reported the item before
 */
export async function openReport(
  dependencies: ModerationDependencies,
  input: unknown,
): Promise<ReportRecord> {
  const command = openReportCommandSchema.parse(input);
  const report = await dependencies.reports.open(
    {
      id: randomUUID(),
      reporterUserId: command.reporterUserId,
      item: command.item,
      accused: command.accused,
      reason: command.reason,
      note: command.note,
    },
    reportOpenedEvent,
  );
  if (!report) throw moderationErrors.alreadyReported();
  return report;
}

/**
 * `GET /reports/:id` (internal, the BFF for the console).
 * @throws AppError not-found 'This report does not exist.'
 */
export async function getReport(
  dependencies: ModerationDependencies,
  id: string,
): Promise<ReportRecord> {
  const report = isUuid(id) ? await dependencies.reports.find(id) : null;
  if (!report) throw moderationErrors.reportNotFound();
  return report;
}

/**
 * `GET /reports?status=&before=` (internal, the BFF for the console's queue): a page of
 * `REPORT_PAGE_SIZE` reports at most; open ones oldest first, resolved ones newest resolution
 * first; `nextBefore` is the cursor of the page's last report when more follow, else null.
 * @param input the query string (`reportQueueQuerySchema`; status defaults to open), unparsed
 * @throws AppError invalid-argument (an unknown status or parameter, a malformed cursor)
 */
export async function readReportQueue(
  dependencies: ModerationDependencies,
  input: unknown,
): Promise<ReportPage> {
  const query = reportQueueQuerySchema.parse(input);
  const page = await keysetPage(
    query.before,
    REPORT_PAGE_SIZE,
    (after, limit) => dependencies.reports.listByStatus(query.status, after, limit),
    (report) => (query.status === 'open' ? report.created : report.resolution!.at),
  );
  return { reports: page.rows, nextBefore: page.nextBefore };
}

/**
 * `GET /reports/mine?reporterUserId=&before=` (internal, the BFF for the reporter): the
 * reporter's own reports, newest first, a page at a time, each with its outcome once resolved.
 * @throws AppError invalid-argument (no reporter, an unknown parameter, a malformed cursor)
 */
export async function readMyReports(
  dependencies: ModerationDependencies,
  input: unknown,
): Promise<ReportPage> {
  const query = myReportsQuerySchema.parse(input);
  const page = await keysetPage(
    query.before,
    REPORT_PAGE_SIZE,
    (after, limit) => dependencies.reports.listOfReporter(query.reporterUserId, after, limit),
    (report) => report.created,
  );
  return { reports: page.rows, nextBefore: page.nextBefore };
}

/** The same decision: outcome, note and staff member (the instant aside). */
const sameResolution = (a: ReportResolution, b: ReportResolution) =>
  a.outcome === b.outcome && a.note === b.note && a.staff.userId === b.staff.userId;

/** The audit entry of a resolved report: `report.resolve` on the report, why = the note. */
function resolutionAuditEntry(report: ReportRecord): AuditEntry {
  const resolution = report.resolution!;
  return {
    id: randomUUID(),
    at: resolution.at,
    staff: resolution.staff,
    action: 'report.resolve',
    target: { kind: 'report', id: report.id, label: report.item.label },
    reason: resolution.note,
    details: { outcome: resolution.outcome, itemKind: report.item.kind, itemId: report.item.id },
  };
}

/**
 * `PUT /reports/:id/resolution` (internal, the BFF for a staff member): resolves the report once.
 * In one transaction the report is resolved (version + 1, `moderation.report.updated`) and the
 * staff action is recorded in the audit log and published (`moderation.audit-entry.recorded`).
 * The same resolution again (outcome, note, staff member) answers the report and changes nothing.
 * @param input the body (`resolveReportCommandSchema`), unparsed
 * @returns the resolved report
 * @throws AppError invalid-argument (no outcome: 'Choose an outcome for the report.'; the note's
 *   rules); not-found 'This report does not exist.'; conflict 'This report is already resolved.'
 *   when it was resolved otherwise
 */
export async function resolveReport(
  dependencies: ModerationDependencies,
  id: string,
  input: unknown,
): Promise<ReportRecord> {
  const command = resolveReportCommandSchema.parse(input);
  if (!isUuid(id)) throw moderationErrors.reportNotFound();
  const resolution: ReportResolution = {
    outcome: command.outcome,
    note: command.note,
    staff: command.staff,
    at: dependencies.now().toISOString(),
  };
  const report = await dependencies.reports.resolve(id, resolution, {
    decide(current) {
      if (current.resolution === null) return true;
      if (sameResolution(current.resolution, resolution)) return false;
      throw moderationErrors.reportAlreadyResolved();
    },
    raise: reportUpdatedEvent,
    auditEntryOf: resolutionAuditEntry,
    raiseAuditEntry: auditEntryRecordedEvent,
  });
  if (!report) throw moderationErrors.reportNotFound();
  return report;
}
