/**
 * What the parties do with a collaboration's work (docs/product-spec.md
 * §11): the brand splits the work, reviews it and marks the payment paid;
 * the creator hands work in and confirms the payment's receipt; either side
 * cancels. Each checks the form, the caller's side, then applies its rule of
 * ./work-rules under the collaboration's row lock and raises
 * `collaborations.collaboration.updated` with the snapshot after it.
 */
import {
  cancelCollaborationSchema,
  markPaidSchema,
  reviewDeliverableSchema,
  setDeliverablesSchema,
  submitDeliverableSchema,
} from '@raly/contracts/collaboration-work';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import type { Caller } from '@raly/service-kit/auth';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationsErrors } from './errors';
import { collaborationUpdatedEvent } from './events';
import { collaborationOfParty } from './parties';
import * as rules from './work-rules';

/** Who may take an action: one side, or either. */
type Side = CollaborationParty | 'either';

/**
 * Applies `decide` to the collaboration as one of its parties on `side`.
 * @throws AppError not-found collaborationNotFound; permission-denied onlyTheBrandCan /
 *   onlyTheCreatorCan; whatever `decide` throws
 */
export async function changeWork(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  side: Side,
  decide: (current: rules.WorkState, party: CollaborationParty, now: Date) => rules.WorkState,
): Promise<CollaborationRecord> {
  const { collaboration, party } = await collaborationOfParty(
    dependencies,
    caller,
    collaborationId,
  );
  if (side !== 'either' && party !== side)
    throw side === 'brand'
      ? collaborationsErrors.onlyTheBrandCan()
      : collaborationsErrors.onlyTheCreatorCan();
  const changed = await dependencies.collaborations.changeWorkWithEvent(
    collaboration.id,
    (current) => decide(current, party, new Date()),
    collaborationUpdatedEvent,
  );
  if (!changed) throw collaborationsErrors.collaborationNotFound();
  return changed;
}

/**
 * `PUT /collaborations/:id/deliverables` (brand): replaces the deliverables before any submission.
 * @param input `setDeliverablesSchema`, unparsed
 * @throws AppError invalid-argument; the refusals of {@link changeWork} and `rules.setDeliverables`
 */
export async function setDeliverables(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  input: unknown,
): Promise<CollaborationRecord> {
  const form = setDeliverablesSchema.parse(input);
  return changeWork(dependencies, caller, collaborationId, 'brand', (current, _party, now) =>
    rules.setDeliverables(current, form, now),
  );
}

/**
 * `POST /collaborations/:id/deliverables/:deliverableId/submissions` (creator): hands work in.
 * @param input `submitDeliverableSchema`, unparsed
 * @throws AppError invalid-argument; the refusals of {@link changeWork} and `rules.submitDeliverable`
 */
export async function submitDeliverable(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  deliverableId: string,
  input: unknown,
): Promise<CollaborationRecord> {
  const form = submitDeliverableSchema.parse(input);
  return changeWork(dependencies, caller, collaborationId, 'creator', (current, _party, now) =>
    rules.submitDeliverable(
      current,
      deliverableId,
      form,
      now,
      dependencies.workWindows.reviewWindowMs,
    ),
  );
}

/**
 * `POST /collaborations/:id/deliverables/:deliverableId/review` (brand): approve, request
 * changes or dispute.
 * @param input `reviewDeliverableSchema`, unparsed
 * @throws AppError invalid-argument; the refusals of {@link changeWork} and `rules.reviewDeliverable`
 */
export async function reviewDeliverable(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  deliverableId: string,
  input: unknown,
): Promise<CollaborationRecord> {
  const form = reviewDeliverableSchema.parse(input);
  return changeWork(dependencies, caller, collaborationId, 'brand', (current, _party, now) =>
    rules.reviewDeliverable(current, deliverableId, form, now),
  );
}

/**
 * `POST /collaborations/:id/payment/paid` (brand): the payment is made (Raly moves no money).
 * @param input `markPaidSchema`, unparsed
 * @throws AppError invalid-argument; the refusals of {@link changeWork} and `rules.markPaid`
 */
export async function markPaymentPaid(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  input: unknown,
): Promise<CollaborationRecord> {
  const form = markPaidSchema.parse(input);
  return changeWork(dependencies, caller, collaborationId, 'brand', (current, _party, now) =>
    rules.markPaid(current, form, now),
  );
}

/**
 * `POST /collaborations/:id/payment/received` (creator): the payment arrived; the
 * collaboration completes.
 * @throws AppError the refusals of {@link changeWork} and `rules.confirmReceipt`
 */
export async function confirmPaymentReceived(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
): Promise<CollaborationRecord> {
  return changeWork(dependencies, caller, collaborationId, 'creator', (current, _party, now) =>
    rules.confirmReceipt(current, now),
  );
}

/**
 * `POST /collaborations/:id/cancel` (either side). The creator's place on the
 * offer does not come back: nothing is sent to offers.
 * @param input `cancelCollaborationSchema`, unparsed
 * @throws AppError invalid-argument; the refusals of {@link changeWork} and `rules.cancelCollaboration`
 */
export async function cancelCollaboration(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  input: unknown,
): Promise<CollaborationRecord> {
  const form = cancelCollaborationSchema.parse(input);
  return changeWork(dependencies, caller, collaborationId, 'either', (current, party, now) =>
    rules.cancelCollaboration(current, party, form, now),
  );
}
