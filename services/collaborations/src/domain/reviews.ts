/**
 * Reviews after a completed collaboration (docs/product-spec.md
 * "Collaborations"): each side leaves one review of the other, 1–5 stars
 * and a comment of at most 500 characters, only once the collaboration is
 * completed. The review is kept in the collaboration's snapshot (both
 * parties see it live), written in the timeline (`reviewed`, by its side)
 * and raised as `collaborations.collaboration.updated`.
 */
import { leaveReviewSchema, type LeaveReview } from '@raly/contracts/collaboration-reviews';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import type { Caller } from '@raly/service-kit/auth';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationsErrors } from './errors';
import { changeWork } from './work-actions';
import { entry, type WorkState } from './work-rules';

/**
 * `party` reviews the other side of a completed collaboration.
 * @param form the parsed `leaveReviewSchema` (rating 1–5, comment trimmed)
 * @returns the state with the review and its timeline entry
 * @throws reviewNotYet (not completed: active or cancelled), reviewAlreadyLeft (this side reviewed)
 */
export function leaveReview(
  state: WorkState,
  party: CollaborationParty,
  form: LeaveReview,
  now: Date,
): WorkState {
  if (state.status !== 'completed') throw collaborationsErrors.reviewNotYet();
  if (state.reviews[party] !== null) throw collaborationsErrors.reviewAlreadyLeft();
  return {
    ...state,
    reviews: {
      ...state.reviews,
      [party]: { rating: form.rating, comment: form.comment, reviewedAt: now.toISOString() },
    },
    timeline: [...state.timeline, entry('reviewed', now, party)],
  };
}

/**
 * `POST /collaborations/:id/review` (either party): the caller's side reviews the other.
 * @param input `leaveReviewSchema`, unparsed
 * @returns the collaboration's snapshot with the review
 * @throws AppError invalid-argument (reviewRatingRequired on `rating`,
 *   partyReviewCommentTooLong on `comment`); not-found collaborationNotFound (no party);
 *   conflict reviewNotYet, reviewAlreadyLeft
 */
export async function reviewCollaboration(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  input: unknown,
): Promise<CollaborationRecord> {
  const form = leaveReviewSchema.parse(input);
  return changeWork(dependencies, caller, collaborationId, 'either', (current, party, now) =>
    leaveReview(current, party, form, now),
  );
}
