/**
 * A party's review of the other side once the collaboration is completed,
 * through the BFF (docs/api.md "Collaborations"): `POST
 * /api/collaborations/:id/review` answers the whole record, merged at once
 * into the page and the list like every work command.
 */
import type { LeaveReview } from '@raly/contracts/collaboration-reviews';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { api } from '@/lib/api-client';
import { mergeAnswer } from '@/features/collaborations/api/collaboration-work-api';

export const collaborationReviewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST …/review (either party, completed only; 409 `reviewNotYet`, `reviewAlreadyLeft`). */
    leaveReview: build.mutation<
      CollaborationRecord,
      { collaborationId: string; review: LeaveReview }
    >({
      query: ({ collaborationId, review }) => ({
        url: `/collaborations/${encodeURIComponent(collaborationId)}/review`,
        method: 'POST',
        body: review,
      }),
      ...mergeAnswer,
    }),
  }),
});

export const { useLeaveReviewMutation } = collaborationReviewsApi;
