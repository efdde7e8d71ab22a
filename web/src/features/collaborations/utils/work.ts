/**
 * Pure rules of a collaboration's work as the page shows them: which actions
 * the viewer's side may take now (the service enforces the same rules), the
 * words of each status and timeline entry, and what waits for a side.
 */
import {
  REVIEW_ROUNDS_MAX,
  type Deliverable,
  type DeliverableStatus,
  type PaymentStatus,
  type ReviewDeliverable,
  type TimelineEntry,
} from '@raly/contracts/collaboration-work';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import type { BadgeTone } from '@/components/ui/badge';

type Work = Pick<CollaborationRecord, 'status' | 'deliverables' | 'payment'>;

/** True once any deliverable was handed in: the list is locked and the brand owes a reason to cancel. */
export const anySubmission = (collaboration: Pick<CollaborationRecord, 'deliverables'>) =>
  collaboration.deliverables.some((deliverable) => deliverable.submissions.length > 0);

/** The brand may split the work until the first submission, while the collaboration is active. */
export const mayEditDeliverables = (collaboration: Work, side: CollaborationParty) =>
  side === 'brand' && collaboration.status === 'active' && !anySubmission(collaboration);

/** The creator may hand in a deliverable that waits for work. */
export const maySubmit = (
  collaboration: Work,
  side: CollaborationParty,
  deliverable: Deliverable,
) =>
  side === 'creator' &&
  collaboration.status === 'active' &&
  (deliverable.status === 'pending' || deliverable.status === 'changes_requested');

/** The brand may review a submitted deliverable. */
export const mayReview = (
  collaboration: Work,
  side: CollaborationParty,
  deliverable: Deliverable,
) => side === 'brand' && collaboration.status === 'active' && deliverable.status === 'submitted';

/** Cancelling without a reason is the brand's, before the first submission; everyone else owes one. */
export const cancelReasonRequired = (collaboration: Work, side: CollaborationParty) =>
  side === 'creator' || anySubmission(collaboration);

/** @returns the payment action `side` may take now, or null */
export function paymentActionOf(collaboration: Work, side: CollaborationParty) {
  if (collaboration.status !== 'active') return null;
  if (side === 'brand' && collaboration.payment.status === 'due') return 'mark-paid' as const;
  if (side === 'creator' && collaboration.payment.status === 'paid') return 'confirm' as const;
  return null;
}

/** @returns how many actions wait for `side` (hand-ins, reviews, payment steps) on an active collaboration */
export function workWaitingFor(collaboration: Work, side: CollaborationParty): number {
  if (collaboration.status !== 'active') return 0;
  const deliverables = collaboration.deliverables.filter((deliverable) =>
    side === 'brand'
      ? mayReview(collaboration, side, deliverable)
      : maySubmit(collaboration, side, deliverable),
  ).length;
  return deliverables + (paymentActionOf(collaboration, side) ? 1 : 0);
}

export const deliverableStatusLooks: Record<DeliverableStatus, { label: string; tone: BadgeTone }> =
  {
    pending: { label: 'Waiting for work', tone: 'neutral' },
    submitted: { label: 'Submitted', tone: 'indigo' },
    changes_requested: { label: 'Changes requested', tone: 'amber' },
    approved: { label: 'Approved', tone: 'green' },
    disputed: { label: 'Disputed', tone: 'red' },
  };

/** @returns "Changes requested, round 2 of 3" once changes were asked, else null */
export const roundText = (deliverable: Pick<Deliverable, 'changeRequests'>) =>
  deliverable.changeRequests > 0
    ? `Changes requested, round ${deliverable.changeRequests} of ${REVIEW_ROUNDS_MAX}`
    : null;

export const decisionLabels: Record<ReviewDeliverable['decision'], string> = {
  approve: 'Approve',
  request_changes: 'Request changes',
  dispute: 'Open a dispute',
};

export const paymentStatusLooks: Record<PaymentStatus, { label: string; tone: BadgeTone }> = {
  not_due: { label: 'Not due yet', tone: 'neutral' },
  due: { label: 'Due', tone: 'amber' },
  paid: { label: 'Marked as paid', tone: 'indigo' },
  confirmed: { label: 'Received', tone: 'green' },
  not_applicable: { label: 'Nothing to pay', tone: 'neutral' },
};

/** `{deliverable}` stands for the deliverable's title in quotes (or "a deliverable"). */
const timelineWords: Record<TimelineEntry['kind'], string> = {
  opened: 'The collaboration opened',
  deliverables_set: 'The brand set the deliverables',
  submitted: 'The creator handed in {deliverable}',
  approved: 'The brand approved {deliverable}',
  auto_approved: 'Approved automatically, the review window having passed: {deliverable}',
  changes_requested: 'The brand requested changes to {deliverable}',
  disputed: 'The brand opened a dispute on {deliverable}',
  payment_due: 'Every deliverable is approved: the payment is due',
  paid: 'The brand marked the payment as paid',
  payment_confirmed: 'The creator confirmed receipt of the payment',
  payment_overdue: 'The payment is overdue',
  completed: 'The collaboration is completed',
  cancelled: 'The collaboration was cancelled',
  reviewed: 'A review was left',
};

/**
 * @param titles deliverable titles by id (an entry may name one no longer listed)
 * @returns the entry in words, e.g. 'The creator handed in “Video”'
 */
export function timelineText(entry: TimelineEntry, titles: ReadonlyMap<string, string>): string {
  if (entry.kind === 'cancelled' && entry.party)
    return `The ${entry.party} cancelled the collaboration`;
  if (entry.kind === 'reviewed' && entry.party) return `The ${entry.party} left a review`;
  const title = entry.deliverableId ? titles.get(entry.deliverableId) : undefined;
  return timelineWords[entry.kind].replace('{deliverable}', title ? `“${title}”` : 'a deliverable');
}
