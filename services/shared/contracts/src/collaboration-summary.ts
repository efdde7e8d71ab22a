/**
 * The collaborations summary each side's dashboard shows
 * (docs/product-spec.md "Dashboards": each side's live summary): counts by
 * state and unread messages, from the side's own collaborations only. The
 * BFF computes it from the side's list (`GET /api/collaborations/summary`);
 * the web app asks again whenever a collaboration push arrives.
 */
import { z } from 'zod';
import type { CollaborationParty, CollaborationRecord } from './collaborations';

/**
 * - `active`: collaborations under way;
 * - `waitingForYou`: deliverables of active collaborations waiting for this
 *   side: a submission to review (brand), changes to make (creator);
 * - `paymentDue`: active collaborations whose payment is due or marked paid
 *   and not yet confirmed; `paymentOverdue`: those of them overdue;
 * - `completed`, `cancelled`: finished collaborations;
 * - `unreadMessages`: the other side's messages this side has not seen, in all.
 */
export const collaborationsSummarySchema = z.object({
  active: z.number().int().nonnegative(),
  waitingForYou: z.number().int().nonnegative(),
  paymentDue: z.number().int().nonnegative(),
  paymentOverdue: z.number().int().nonnegative(),
  completed: z.number().int().nonnegative(),
  cancelled: z.number().int().nonnegative(),
  unreadMessages: z.number().int().nonnegative(),
});
export type CollaborationsSummary = z.infer<typeof collaborationsSummarySchema>;

/** A summary of nothing. */
export const emptyCollaborationsSummary: CollaborationsSummary = {
  active: 0,
  waitingForYou: 0,
  paymentDue: 0,
  paymentOverdue: 0,
  completed: 0,
  cancelled: 0,
  unreadMessages: 0,
};

/**
 * Sums a side's collaborations.
 * @param collaborations the side's own (as `GET /collaborations` answers them)
 * @param sideOf the side the reader is on in one of them (the creator, or the brand's members)
 * @returns the counts of {@link collaborationsSummarySchema}
 */
export function summarizeCollaborations(
  collaborations: readonly CollaborationRecord[],
  sideOf: (collaboration: CollaborationRecord) => CollaborationParty,
): CollaborationsSummary {
  const summary = { ...emptyCollaborationsSummary };
  for (const collaboration of collaborations) {
    const side = sideOf(collaboration);
    summary.unreadMessages += collaboration.unread[side];
    if (collaboration.status !== 'active') {
      summary[collaboration.status] += 1;
      continue;
    }
    summary.active += 1;
    const waitingStatus = side === 'brand' ? 'submitted' : 'changes_requested';
    summary.waitingForYou += collaboration.deliverables.filter(
      (deliverable) => deliverable.status === waitingStatus,
    ).length;
    const { payment } = collaboration;
    if (payment.status === 'due' || payment.status === 'paid') {
      summary.paymentDue += 1;
      if (payment.overdue) summary.paymentOverdue += 1;
    }
  }
  return summary;
}
