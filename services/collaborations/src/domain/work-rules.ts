/**
 * The rules of a collaboration's work (docs/product-spec.md §11), as pure
 * functions from the state read under the collaboration's row lock to the
 * next state: deliverables set, handed in and reviewed in counted rounds,
 * approved automatically when the review window passes, the payment Raly
 * records, cancelling, and the timeline of each step. Each throws the
 * refusal of `./errors` when its rule says no.
 */
import {
  reviewDecisionsFor,
  type CancelCollaboration,
  type Deliverable,
  type MarkPaid,
  type ReviewDeliverable,
  type SetDeliverables,
  type SubmitDeliverable,
  type TimelineEntry,
  type TimelineKind,
} from '@raly/contracts/collaboration-work';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import { collaborationsErrors } from './errors';
import { newDeliverable } from './work';

/** The part of a collaboration its work changes. */
export type WorkState = Pick<
  CollaborationRecord,
  'status' | 'deliverables' | 'payment' | 'cancellation' | 'timeline' | 'reviews'
>;

/** A timeline entry of `kind` at `now`, by `party` (null: Raly itself). */
export const entry = (
  kind: TimelineKind,
  now: Date,
  party: CollaborationParty | null,
  deliverableId: string | null = null,
): TimelineEntry => ({ kind, at: now.toISOString(), party, deliverableId });

function assertActive(state: WorkState): void {
  if (state.status !== 'active') throw collaborationsErrors.collaborationNotActive();
}

/** @throws deliverableNotFound */
function deliverableOf(state: WorkState, deliverableId: string): Deliverable {
  const deliverable = state.deliverables.find((candidate) => candidate.id === deliverableId);
  if (!deliverable) throw collaborationsErrors.deliverableNotFound();
  return deliverable;
}

const replaced = (state: WorkState, next: Deliverable): Deliverable[] =>
  state.deliverables.map((deliverable) => (deliverable.id === next.id ? next : deliverable));

/**
 * Once the last deliverable is approved: the payment falls due (`payment_due`),
 * or, when there is nothing to pay, the collaboration completes.
 */
function settledWhenAllApproved(state: WorkState, now: Date): WorkState {
  const allApproved =
    state.deliverables.length > 0 &&
    state.deliverables.every((deliverable) => deliverable.status === 'approved');
  if (!allApproved) return state;
  if (state.payment.status === 'not_applicable')
    return {
      ...state,
      status: 'completed',
      timeline: [...state.timeline, entry('completed', now, null)],
    };
  if (state.payment.status !== 'not_due') return state;
  return {
    ...state,
    payment: { ...state.payment, status: 'due', dueAt: now.toISOString() },
    timeline: [...state.timeline, entry('payment_due', now, null)],
  };
}

const approved = (deliverable: Deliverable, now: Date, automatic: boolean): Deliverable => ({
  ...deliverable,
  status: 'approved',
  reviewDueAt: null,
  reviews: [
    ...deliverable.reviews,
    {
      round: deliverable.changeRequests + 1,
      decision: 'approved',
      comment: '',
      automatic,
      reviewedAt: now.toISOString(),
    },
  ],
});

/**
 * The brand splits the work anew (fresh ids), before anything is handed in.
 * @throws collaborationNotActive, deliverablesLocked
 */
export function setDeliverables(state: WorkState, form: SetDeliverables, now: Date): WorkState {
  assertActive(state);
  if (state.deliverables.some((deliverable) => deliverable.submissions.length > 0))
    throw collaborationsErrors.deliverablesLocked();
  return {
    ...state,
    deliverables: form.items.map(({ title, dueAt }) =>
      newDeliverable(title, dueAt ? new Date(dueAt).toISOString() : null),
    ),
    timeline: [...state.timeline, entry('deliverables_set', now, 'brand')],
  };
}

/**
 * The creator hands in a pending deliverable or one with changes requested;
 * the brand's review is due `reviewWindowMs` later.
 * @throws collaborationNotActive, deliverableNotFound, deliverableNotAwaitingWork
 */
export function submitDeliverable(
  state: WorkState,
  deliverableId: string,
  form: SubmitDeliverable,
  now: Date,
  reviewWindowMs: number,
): WorkState {
  assertActive(state);
  const deliverable = deliverableOf(state, deliverableId);
  if (deliverable.status !== 'pending' && deliverable.status !== 'changes_requested')
    throw collaborationsErrors.deliverableNotAwaitingWork();
  const submitted: Deliverable = {
    ...deliverable,
    status: 'submitted',
    reviewDueAt: new Date(now.getTime() + reviewWindowMs).toISOString(),
    submissions: [
      ...deliverable.submissions,
      {
        round: deliverable.changeRequests + 1,
        link: form.link,
        note: form.note,
        imageId: form.imageId,
        submittedAt: now.toISOString(),
      },
    ],
  };
  return {
    ...state,
    deliverables: replaced(state, submitted),
    timeline: [...state.timeline, entry('submitted', now, 'creator', deliverableId)],
  };
}

/**
 * The brand reviews a submitted deliverable with one of
 * `reviewDecisionsFor(changeRequests)`.
 * @throws collaborationNotActive, deliverableNotFound, deliverableNotSubmitted, noRoundsLeft,
 *   disputeNotYet
 */
export function reviewDeliverable(
  state: WorkState,
  deliverableId: string,
  form: ReviewDeliverable,
  now: Date,
): WorkState {
  assertActive(state);
  const deliverable = deliverableOf(state, deliverableId);
  if (deliverable.status !== 'submitted') throw collaborationsErrors.deliverableNotSubmitted();
  if (!reviewDecisionsFor(deliverable.changeRequests).includes(form.decision))
    throw form.decision === 'dispute'
      ? collaborationsErrors.disputeNotYet()
      : collaborationsErrors.noRoundsLeft();
  if (form.decision === 'approve')
    return settledWhenAllApproved(
      {
        ...state,
        deliverables: replaced(state, approved(deliverable, now, false)),
        timeline: [...state.timeline, entry('approved', now, 'brand', deliverableId)],
      },
      now,
    );
  const requested = form.decision === 'request_changes';
  const reviewed: Deliverable = {
    ...deliverable,
    status: requested ? 'changes_requested' : 'disputed',
    changeRequests: deliverable.changeRequests + (requested ? 1 : 0),
    reviewDueAt: null,
    reviews: [
      ...deliverable.reviews,
      {
        round: deliverable.changeRequests + 1,
        decision: requested ? 'changes_requested' : 'disputed',
        comment: form.comment,
        automatic: false,
        reviewedAt: now.toISOString(),
      },
    ],
  };
  return {
    ...state,
    deliverables: replaced(state, reviewed),
    timeline: [
      ...state.timeline,
      entry(requested ? 'changes_requested' : 'disputed', now, 'brand', deliverableId),
    ],
  };
}

/**
 * The sweep approves every submitted deliverable whose review was due by `now`
 * (`auto_approved`, by Raly).
 * @returns the next state, or null when none was due
 */
export function autoApproveDue(state: WorkState, now: Date): WorkState | null {
  if (state.status !== 'active') return null;
  const due = state.deliverables.filter(
    (deliverable) =>
      deliverable.status === 'submitted' &&
      deliverable.reviewDueAt !== null &&
      Date.parse(deliverable.reviewDueAt) <= now.getTime(),
  );
  if (due.length === 0) return null;
  const dueIds = new Set(due.map((deliverable) => deliverable.id));
  const next: WorkState = {
    ...state,
    deliverables: state.deliverables.map((deliverable) =>
      dueIds.has(deliverable.id) ? approved(deliverable, now, true) : deliverable,
    ),
    timeline: [
      ...state.timeline,
      ...due.map((deliverable) => entry('auto_approved', now, null, deliverable.id)),
    ],
  };
  return settledWhenAllApproved(next, now);
}

/**
 * The brand says it paid (an empty reference is kept as none).
 * @throws collaborationNotActive, paymentNotDue
 */
export function markPaid(state: WorkState, form: MarkPaid, now: Date): WorkState {
  assertActive(state);
  if (state.payment.status !== 'due') throw collaborationsErrors.paymentNotDue();
  return {
    ...state,
    payment: {
      ...state.payment,
      status: 'paid',
      reference: form.reference || null,
      paidAt: now.toISOString(),
    },
    timeline: [...state.timeline, entry('paid', now, 'brand')],
  };
}

/**
 * The creator confirms receipt: the payment is settled and the collaboration
 * completes. A second confirmation is told so (not "not active").
 * @throws paymentAlreadyConfirmed, collaborationNotActive, paymentNotMarked
 */
export function confirmReceipt(state: WorkState, now: Date): WorkState {
  if (state.payment.status === 'confirmed') throw collaborationsErrors.paymentAlreadyConfirmed();
  assertActive(state);
  if (state.payment.status !== 'paid') throw collaborationsErrors.paymentNotMarked();
  return {
    ...state,
    status: 'completed',
    payment: {
      ...state.payment,
      status: 'confirmed',
      confirmedAt: now.toISOString(),
      overdue: false,
    },
    timeline: [
      ...state.timeline,
      entry('payment_confirmed', now, 'creator'),
      entry('completed', now, null),
    ],
  };
}

/**
 * A side cancels. The brand needs no reason before anything is handed in;
 * otherwise the other side is owed one.
 * @throws collaborationNotActive, cancelReasonRequired (field `reason`)
 */
export function cancelCollaboration(
  state: WorkState,
  party: CollaborationParty,
  form: CancelCollaboration,
  now: Date,
): WorkState {
  assertActive(state);
  const workHandedIn = state.deliverables.some((deliverable) => deliverable.submissions.length > 0);
  if (form.reason === '' && (party === 'creator' || workHandedIn))
    throw collaborationsErrors.cancelReasonRequired();
  return {
    ...state,
    status: 'cancelled',
    cancellation: { party, reason: form.reason, cancelledAt: now.toISOString() },
    timeline: [...state.timeline, entry('cancelled', now, party)],
  };
}

/**
 * The sweep marks a payment overdue once: due (or paid) since `cutoff` or
 * earlier and not confirmed.
 * @returns the next state, or null when it is not overdue (or already marked)
 */
export function markOverdue(state: WorkState, cutoff: Date, now: Date): WorkState | null {
  const { payment } = state;
  if (state.status !== 'active' || payment.overdue) return null;
  if (payment.status !== 'due' && payment.status !== 'paid') return null;
  if (payment.dueAt === null || Date.parse(payment.dueAt) > cutoff.getTime()) return null;
  return {
    ...state,
    payment: { ...payment, overdue: true },
    timeline: [...state.timeline, entry('payment_overdue', now, null)],
  };
}
