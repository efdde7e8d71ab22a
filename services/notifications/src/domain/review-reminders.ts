/**
 * "An automatic approval coming due" (docs/product-spec.md §12.1): a
 * submission the brand has not reviewed is approved by Raly at its
 * `reviewDueAt`; `NOTIFICATIONS_REVIEW_REMINDER_HOURS` before that, the
 * brand's members are told once. Each newer collaboration snapshot keeps
 * the waiting reminders in step (a review, a cancel drops them); a sweep
 * every `NOTIFICATIONS_SWEEP_MS` sends those whose time has come. A
 * reminder whose approval already passed (the service was away) is dropped
 * unsent: the approval itself is told instead.
 */
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { topics } from '@raly/contracts/events';
import type { DueReminder, WaitingReview } from '../data-access/review-reminders';
import type { NotificationDraft } from '../data-access/inbox-repository';
import type { NotificationsDependencies } from './dependencies';
import { inboxUpdatedEvent } from './events';
import { every, type Loop } from './loop';

/** Reminders one claim takes at most. */
const REMINDERS_PER_CLAIM = 100;
/** Claims one run makes at most, so a backlog never holds a run for long. */
const CLAIMS_PER_RUN = 20;

/** The submissions of an active collaboration waiting for review. */
export function waitingReviewsOf(collaboration: CollaborationRecord): WaitingReview[] {
  if (collaboration.status !== 'active') return [];
  return collaboration.deliverables.flatMap((deliverable) =>
    deliverable.status === 'submitted' && deliverable.reviewDueAt
      ? [
          {
            deliverableId: deliverable.id,
            round: deliverable.submissions.length,
            dueAt: new Date(deliverable.reviewDueAt),
          },
        ]
      : [],
  );
}

/** The items of one reminder: each member of the brand, unless its approval already passed. */
const draftsOf =
  (now: Date) =>
  (reminder: DueReminder, members: string[]): NotificationDraft[] =>
    reminder.dueAt <= now
      ? []
      : members.map((recipientId) => ({
          recipientId,
          kind: 'auto_approval_due',
          source: {
            fromTopic: topics.collaborationsCollaboration,
            aggregateId: reminder.collaborationId,
            version: reminder.round,
            occurrence: `review_due:${reminder.deliverableId}:${reminder.round}`,
          },
          offerId: reminder.offerId,
          applicationId: null,
          collaborationId: reminder.collaborationId,
          title: reminder.offerTitle,
          counterpart: reminder.creatorUsername,
        }));

/**
 * Sends the reminders whose time has come, claim by claim.
 * @returns how many reminders were claimed
 */
export async function sendDueReminders(dependencies: NotificationsDependencies): Promise<number> {
  let claimed = 0;
  for (let claim = 0; claim < CLAIMS_PER_RUN; claim++) {
    const now = dependencies.now();
    const until = new Date(now.getTime() + dependencies.reviewReminderLeadMs);
    const taken = await dependencies.reviewReminders.sendDue(
      until,
      REMINDERS_PER_CLAIM,
      draftsOf(now),
      inboxUpdatedEvent,
    );
    claimed += taken;
    if (taken < REMINDERS_PER_CLAIM) break;
  }
  return claimed;
}

/** The running sweep of review reminders. */
export type ReminderSweep = Loop;

/**
 * Starts the sweep (first run after one interval; a failed run is logged and the next runs).
 * @param intervalMs time between runs, in ms
 */
export function startReminderSweep(
  dependencies: NotificationsDependencies,
  intervalMs: number,
): ReminderSweep {
  return every(intervalMs, 'review-reminders', dependencies, async () => {
    const sent = await sendDueReminders(dependencies);
    if (sent > 0) dependencies.logger.info({ sent }, 'review reminders sent');
  });
}
