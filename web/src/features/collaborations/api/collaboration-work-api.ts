/**
 * The work of a collaboration through the BFF (docs/api.md "Collaborations"):
 * setting the deliverables, handing one in, reviewing it, the payment marked
 * and confirmed, and cancelling. Each answers the whole record, merged at
 * once into the page and the list (the newer version wins), so the tab that
 * acted shows the change before the `collaboration.updated` push arrives.
 */
import type {
  CancelCollaboration,
  MarkPaid,
  ReviewDeliverable,
  SetDeliverables,
  SubmitDeliverable,
} from '@raly/contracts/collaboration-work';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { api, unwrapData } from '@/lib/api-client';
import { mergeCollaborationIntoList } from '@/lib/collaborations-api';
import type { CacheLifecycle } from '@/lib/follow-live';
import { isNewer } from '@/lib/live-updates';
import { collaborationsApi } from '@/features/collaborations/api/collaborations-api';

const collaborationPath = (id: string) => `/collaborations/${encodeURIComponent(id)}`;
const deliverablePath = (id: string, deliverableId: string) =>
  `${collaborationPath(id)}/deliverables/${encodeURIComponent(deliverableId)}`;

/** A command on one collaboration: the URL under it and the body. */
const command = (url: string, body: unknown) => ({ url, method: 'POST' as const, body });

/** Merges a command's answer into the cached record and list (every endpoint here answers one). */
export const mergeAnswer = {
  transformResponse: unwrapData<CollaborationRecord>,
  async onQueryStarted(
    { collaborationId }: { collaborationId: string },
    {
      dispatch,
      queryFulfilled,
    }: {
      dispatch: CacheLifecycle['dispatch'];
      queryFulfilled: Promise<{ data: CollaborationRecord }>;
    },
  ) {
    const { data } = await queryFulfilled.catch(() => ({ data: null }));
    if (!data) return;
    dispatch(
      collaborationsApi.util.updateQueryData('getCollaboration', collaborationId, (current) =>
        isNewer(current, data) ? data : current,
      ),
    );
    mergeCollaborationIntoList(dispatch, data);
  },
};

interface OnDeliverable {
  collaborationId: string;
  deliverableId: string;
}

export const collaborationWorkApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** PUT …/deliverables (brand, before the first submission; 409 `deliverablesLocked`). */
    setDeliverables: build.mutation<
      CollaborationRecord,
      { collaborationId: string; deliverables: SetDeliverables }
    >({
      query: ({ collaborationId, deliverables }) => ({
        url: `${collaborationPath(collaborationId)}/deliverables`,
        method: 'PUT',
        body: deliverables,
      }),
      ...mergeAnswer,
    }),
    /** POST …/deliverables/:deliverableId/submissions (creator; pending or changes requested). */
    submitDeliverable: build.mutation<
      CollaborationRecord,
      OnDeliverable & { submission: SubmitDeliverable }
    >({
      query: ({ collaborationId, deliverableId, submission }) =>
        command(`${deliverablePath(collaborationId, deliverableId)}/submissions`, submission),
      ...mergeAnswer,
    }),
    /** POST …/deliverables/:deliverableId/review (brand; a decision of `reviewDecisionsFor`). */
    reviewDeliverable: build.mutation<
      CollaborationRecord,
      OnDeliverable & { review: ReviewDeliverable }
    >({
      query: ({ collaborationId, deliverableId, review }) =>
        command(`${deliverablePath(collaborationId, deliverableId)}/review`, review),
      ...mergeAnswer,
    }),
    /** POST …/payment/paid (brand; payment due, else 409 `paymentNotDue`). */
    markPaid: build.mutation<CollaborationRecord, { collaborationId: string; payment: MarkPaid }>({
      query: ({ collaborationId, payment }) =>
        command(`${collaborationPath(collaborationId)}/payment/paid`, payment),
      ...mergeAnswer,
    }),
    /** POST …/payment/received (creator; marked paid): the collaboration completes. */
    confirmReceipt: build.mutation<CollaborationRecord, { collaborationId: string }>({
      query: ({ collaborationId }) =>
        command(`${collaborationPath(collaborationId)}/payment/received`, {}),
      ...mergeAnswer,
    }),
    /** POST …/cancel (active only; 400 `cancelReasonRequired` on `reason` when one is owed). */
    cancelCollaboration: build.mutation<
      CollaborationRecord,
      { collaborationId: string; cancel: CancelCollaboration }
    >({
      query: ({ collaborationId, cancel }) =>
        command(`${collaborationPath(collaborationId)}/cancel`, cancel),
      ...mergeAnswer,
    }),
  }),
});

export const {
  useSetDeliverablesMutation,
  useSubmitDeliverableMutation,
  useReviewDeliverableMutation,
  useMarkPaidMutation,
  useConfirmReceiptMutation,
  useCancelCollaborationMutation,
} = collaborationWorkApi;
