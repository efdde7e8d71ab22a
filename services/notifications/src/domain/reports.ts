/**
 * The reporter learns the outcome (docs/console.md "Reports"): once staff
 * resolved a report, its reporter gets one item saying so, with the label
 * they saw and the outcome (its words: `reportOutcomeWords`), leading to
 * Settings → Reports. It carries what `reporterViewOf` shows a reporter and
 * no more: never whom the report accused nor the staff member, and never a
 * message's text (a reported message is named by its kind only).
 */
import { topics, type Envelope } from '@raly/contracts/events';
import type { ReportRecord } from '@raly/contracts/reports';
import type { NotificationDraft } from '../data-access/inbox-repository';
import type { NotificationsDependencies } from './dependencies';
import { inboxUpdatedEvent } from './events';
import { isRecent } from './recent';

/**
 * The reporter's item of a resolved report, or null while it is open.
 * @param report a `moderation.report.v1` snapshot
 * @returns a draft keyed by the report and the occurrence `resolved`, so any later, repeated or
 *   replayed snapshot of the resolution names the same item
 */
export function reportOutcomeDraft(report: ReportRecord): NotificationDraft | null {
  if (report.status !== 'resolved' || !report.resolution) return null;
  return {
    recipientId: report.reporterUserId,
    kind: 'report_resolved',
    source: {
      fromTopic: topics.moderationReport,
      aggregateId: report.id,
      version: report.version,
      occurrence: 'resolved',
    },
    offerId: null,
    applicationId: null,
    collaborationId: null,
    title: report.item.kind === 'message' ? '' : report.item.label,
    counterpart: null,
    report: { itemKind: report.item.kind, outcome: report.resolution.outcome },
  };
}

/**
 * Handles `moderation.report.opened|updated`: a report resolved recently
 * (within NOTIFICATIONS_MAX_AGE_HOURS) tells its reporter once; an open report,
 * an older snapshot, a redelivery or a replay adds nothing.
 */
export async function notifyOfReportOutcome(
  dependencies: NotificationsDependencies,
  event: Envelope<ReportRecord>,
): Promise<void> {
  const draft = reportOutcomeDraft(event.data);
  if (!draft || !isRecent(dependencies, event.data.resolution!.at)) return;
  await dependencies.inboxes.deliver([draft], inboxUpdatedEvent);
}
