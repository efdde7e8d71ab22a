/**
 * Collaborations through the BFF (docs/api.md "Collaborations"): a party's
 * list, one collaboration, its message history, sending a message, the
 * seen mark and the work (deliverables, submissions, reviews, payment,
 * cancelling). services/collaborations decides who is a party (anyone else:
 * 404) with the forwarded token; every collaboration snapshot it answers
 * goes through `applySnapshot`, so the other tabs of both parties get it at
 * once (docs/adr/0007). Messages reach the parties' tabs from the projector.
 */
import {
  summarizeCollaborations,
  type CollaborationsSummary,
} from '@raly/contracts/collaboration-summary';
import {
  messagesQuerySchema,
  type CollaborationRecord,
  type MessagesPage,
} from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { firstErrorByField } from '@raly/contracts/validation';
import type { Caller } from '@raly/service-kit/auth';
import type { CollaborationsClient, SentMessage } from '../data-access/collaborations-client';
import { bffErrors } from './errors';
import { answerWithNewest, type RecordStore } from './record-store';

export interface CollaborationsDependencies {
  collaborations: CollaborationsClient;
  records: RecordStore;
}

/**
 * GET /api/collaborations: the caller's collaborations, newest activity first.
 * @throws AppError as the collaborations service answered
 */
export function listCollaborations(
  dependencies: Pick<CollaborationsDependencies, 'collaborations'>,
  caller: Caller,
): Promise<CollaborationRecord[]> {
  return dependencies.collaborations.listCollaborations(caller.accessToken);
}

/**
 * GET /api/collaborations/summary: the dashboard's counts of the caller's own
 * collaborations (as many as the list holds, newest activity first) from
 * the caller's side: the creator's in a creator's, the brand's in a member's.
 * @returns `CollaborationsSummary` (all zero for a user with none)
 * @throws AppError as the collaborations service answered
 */
export async function collaborationsSummary(
  dependencies: Pick<CollaborationsDependencies, 'collaborations'>,
  caller: Caller,
): Promise<CollaborationsSummary> {
  const mine = await dependencies.collaborations.listCollaborations(caller.accessToken);
  return summarizeCollaborations(mine, (collaboration) =>
    collaboration.creatorId === caller.userId ? 'creator' : 'brand',
  );
}

/**
 * GET /api/collaborations/:id: the collaboration, as the newest version known.
 * @throws AppError as the collaborations service answered (404 collaborationNotFound for anyone but its parties)
 */
export async function getCollaboration(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
): Promise<CollaborationRecord> {
  const collaboration = await dependencies.collaborations.getCollaboration(
    caller.accessToken,
    collaborationId,
  );
  return answerWithNewest(dependencies.records, 'collaboration', collaboration);
}

/**
 * GET /api/collaborations/:id/messages: one page of history, newest first.
 * @param query the request's query string (`MessagesQuery`: before, limit 1–100, default 30)
 * @throws AppError invalid-argument 'There was a problem with your request.' (with the
 *   fields) for a bad `before` or `limit`; as the collaborations service answered
 */
export function listMessages(
  dependencies: Pick<CollaborationsDependencies, 'collaborations'>,
  caller: Caller,
  collaborationId: string,
  query: unknown,
): Promise<MessagesPage> {
  const parsed = messagesQuerySchema.safeParse(query ?? {});
  if (!parsed.success)
    throw bffErrors.invalidArgument(messages.requestProblem, firstErrorByField(parsed.error));
  return dependencies.collaborations.listMessages(caller.accessToken, collaborationId, parsed.data);
}

/**
 * POST /api/collaborations/:id/messages: the caller sends `form`
 * (`sendMessageSchema`: clientId, body, confirmContactDetails). The stored
 * message is pushed to the parties' tabs from the answer, without waiting for
 * its event (`RecordStore.pushMessage` pushes each message once, whichever of
 * the answer and the event comes first; docs/architecture.md "How a change travels").
 * @returns the message and whether it is new (a retry of its clientId answers the stored one)
 * @throws AppError as the collaborations service answered (400 per field; 404; 409
 *   `contact-details` with contactDetailsNotice, 409 collaborationCancelled)
 */
export async function sendMessage(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  form: unknown,
): Promise<SentMessage> {
  const sent = await dependencies.collaborations.sendMessage(
    caller.accessToken,
    collaborationId,
    form,
  );
  // Not awaited: the answer does not wait for the push, and a push that failed here (Redis
  // unreachable) claimed nothing, so the projector pushes the message from its event instead.
  void dependencies.records.pushMessage(sent.message).catch(() => false);
  return sent;
}

/**
 * POST /api/collaborations/:id/seen: the caller's side has seen the
 * conversation up to `mark.sequence` (`markSeenSchema`).
 * @returns the collaboration with the caller's side's seen mark and unread count
 * @throws AppError as the collaborations service answered (400; 404)
 */
export async function markSeen(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  mark: unknown,
): Promise<CollaborationRecord> {
  const collaboration = await dependencies.collaborations.markSeen(
    caller.accessToken,
    collaborationId,
    mark,
  );
  return answerWithNewest(dependencies.records, 'collaboration', collaboration);
}

/**
 * Runs one action of a collaboration's work on the service and keeps its answered snapshot.
 * @returns the collaboration, as the newest version known
 */
async function actedOn(
  records: RecordStore,
  action: Promise<CollaborationRecord>,
): Promise<CollaborationRecord> {
  return answerWithNewest(records, 'collaboration', await action);
}

/**
 * PUT /api/collaborations/:id/deliverables: the brand replaces the list
 * (`setDeliverablesSchema`) before the first submission.
 * @throws AppError as the collaborations service answered (400 per field; 403 onlyTheBrandCan;
 *   404; 409 deliverablesLocked, collaborationNotActive)
 */
export function setDeliverables(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  form: unknown,
): Promise<CollaborationRecord> {
  return actedOn(
    dependencies.records,
    dependencies.collaborations.setDeliverables(caller.accessToken, collaborationId, form),
  );
}

/**
 * POST /api/collaborations/:id/deliverables/:deliverableId/submissions: the
 * creator hands a deliverable in (`submitDeliverableSchema`: link, note).
 * @throws AppError as the collaborations service answered (400 per field; 403 onlyTheCreatorCan;
 *   404 collaborationNotFound, deliverableNotFound; 409 deliverableNotAwaitingWork,
 *   collaborationNotActive)
 */
export function submitDeliverable(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  ids: { collaborationId: string; deliverableId: string },
  form: unknown,
): Promise<CollaborationRecord> {
  return actedOn(
    dependencies.records,
    dependencies.collaborations.submitDeliverable(
      caller.accessToken,
      ids.collaborationId,
      ids.deliverableId,
      form,
    ),
  );
}

/**
 * POST /api/collaborations/:id/deliverables/:deliverableId/review: the brand
 * answers a submission (`reviewDeliverableSchema`: approve, request_changes, dispute).
 * @throws AppError as the collaborations service answered (400 per field; 403 onlyTheBrandCan;
 *   404; 409 deliverableNotSubmitted, noRoundsLeft, disputeNotYet, collaborationNotActive)
 */
export function reviewDeliverable(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  ids: { collaborationId: string; deliverableId: string },
  form: unknown,
): Promise<CollaborationRecord> {
  return actedOn(
    dependencies.records,
    dependencies.collaborations.reviewDeliverable(
      caller.accessToken,
      ids.collaborationId,
      ids.deliverableId,
      form,
    ),
  );
}

/**
 * POST /api/collaborations/:id/payment/paid: the brand marks the due payment
 * made (`markPaidSchema`: reference).
 * @throws AppError as the collaborations service answered (400; 403 onlyTheBrandCan; 404;
 *   409 paymentNotDue, collaborationNotActive)
 */
export function markPaid(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  form: unknown,
): Promise<CollaborationRecord> {
  return actedOn(
    dependencies.records,
    dependencies.collaborations.markPaid(caller.accessToken, collaborationId, form),
  );
}

/**
 * POST /api/collaborations/:id/payment/received: the creator confirms the
 * payment arrived, which completes the collaboration.
 * @throws AppError as the collaborations service answered (403 onlyTheCreatorCan; 404;
 *   409 paymentNotMarked, paymentAlreadyConfirmed, collaborationNotActive)
 */
export function confirmPayment(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
): Promise<CollaborationRecord> {
  return actedOn(
    dependencies.records,
    dependencies.collaborations.confirmPayment(caller.accessToken, collaborationId),
  );
}

/**
 * POST /api/collaborations/:id/review: either party reviews the other once the
 * collaboration is completed (`leaveReviewSchema`: rating 1–5, comment ≤ 500).
 * @throws AppError as the collaborations service answered (400 reviewRatingRequired on
 *   `rating`, partyReviewCommentTooLong on `comment`; 404 for anyone but the parties;
 *   409 reviewNotYet, reviewAlreadyLeft)
 */
export function leaveReview(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  form: unknown,
): Promise<CollaborationRecord> {
  return actedOn(
    dependencies.records,
    dependencies.collaborations.leaveReview(caller.accessToken, collaborationId, form),
  );
}

/**
 * POST /api/collaborations/:id/cancel: either party cancels
 * (`cancelCollaborationSchema`: reason, required unless the brand cancels
 * before the first submission).
 * @throws AppError as the collaborations service answered (400 cancelReasonRequired on
 *   `reason`; 404; 409 collaborationNotActive)
 */
export function cancelCollaboration(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  form: unknown,
): Promise<CollaborationRecord> {
  return actedOn(
    dependencies.records,
    dependencies.collaborations.cancel(caller.accessToken, collaborationId, form),
  );
}
