/**
 * Reports in the staff console (docs/console.md "Reports"): the queue, one report with whom it
 * accuses and who reported it, and a staff member's resolution. A suspension outcome suspends
 * the accused first with the console's own suspension decision (sessions end as usual); the
 * report is resolved only once that has succeeded. services/moderation keeps the reports and
 * records each resolution in the audit log (`report.resolve`).
 */
import { SUSPENSION_REASON_MAX_LENGTH } from '@raly/contracts/internal';
import {
  reportQueueQuerySchema,
  reportResolutionDecisionSchema,
  type ReportPage,
  type ReportRecord,
} from '@raly/contracts/reports';
import { messages } from '@raly/contracts/messages';
import { z } from 'zod';
import type { StaffCaller } from '../auth/keycloak';
import {
  decideBrandSuspension,
  decideCreatorSuspension,
  staffActorOf,
  type ConsoleDependencies,
} from './console';
import { bffErrors } from './errors';

/** A report's id is a uuid: anything else names no report (and never reaches `/reports/mine`). */
const reportIdSchema = z.uuid();

/**
 * GET /api/console/reports?status=open|resolved&before= (raly-moderator): a page of the queue,
 * open reports oldest first (the default) or resolved ones newest resolution first, full records.
 * @param input the request's query string (`reportQueueQuerySchema`), unparsed; checked here,
 *   so a bad one never leaves the BFF
 * @throws AppError invalid-argument (an unknown status or parameter, a repeated or bad cursor)
 */
export async function findReports(
  dependencies: Pick<ConsoleDependencies, 'moderation'>,
  input: unknown,
): Promise<ReportPage> {
  return dependencies.moderation.reportQueue(reportQueueQuerySchema.parse(input));
}

/**
 * GET /api/console/reports/:id (raly-moderator): one report, with its accused and its reporter.
 * @throws AppError not-found 'This report does not exist.'
 */
export async function getReportForStaff(
  dependencies: Pick<ConsoleDependencies, 'moderation'>,
  reportId: string,
): Promise<ReportRecord> {
  if (!reportIdSchema.safeParse(reportId).success)
    throw bffErrors.notFound(messages.reportNotFound);
  return dependencies.moderation.getReport(reportId);
}

/**
 * Suspends the report's accused as the staff member, with the resolution's note as the reason
 * (cut to the suspension reason's limit): `decideCreatorSuspension` or `decideBrandSuspension`.
 */
async function suspendAccused(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  report: ReportRecord,
  note: string,
): Promise<void> {
  const decision = { suspended: true, reason: note.slice(0, SUSPENSION_REASON_MAX_LENGTH) };
  if (report.accused.kind === 'creator')
    await decideCreatorSuspension(dependencies, staff, report.accused.id, decision);
  else await decideBrandSuspension(dependencies, staff, report.accused.id, decision);
}

/**
 * PUT /api/console/reports/:id/resolution (raly-moderator): resolves an open report with
 * `{ outcome, note }`. For `suspension` the accused is suspended first (their sessions end); if
 * that fails, the report stays open. `no-action` and `warning` only resolve. A report already
 * resolved is not acted on again: moderation answers it (the same decision) or 409.
 * @param input `reportResolutionDecisionSchema`, unparsed
 * @returns the resolved report
 * @throws AppError invalid-argument ('Choose an outcome for the report.', 'Explain the decision
 *   in the note.', the note's length); not-found 'This report does not exist.'; conflict 'This
 *   report is already resolved.'; the suspension's refusals; unavailable
 */
export async function resolveReportAsStaff(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  reportId: string,
  input: unknown,
): Promise<ReportRecord> {
  const decision = reportResolutionDecisionSchema.parse(input);
  const report = await getReportForStaff(dependencies, reportId);
  if (decision.outcome === 'suspension' && report.status === 'open')
    await suspendAccused(dependencies, staff, report, decision.note);
  return dependencies.moderation.resolveReport(report.id, {
    staff: staffActorOf(staff),
    outcome: decision.outcome,
    note: decision.note,
  });
}
