/**
 * The deliverables of a collaboration: each with its status, its round of
 * changes ("Changes requested, round 2 of 3"), its due date, and its
 * history of submissions (link, note and image) and reviews (comments, "approved
 * automatically"). The creator hands in what waits for work, the brand
 * reviews what was handed in and may edit the list until the first
 * submission: only the actions the viewer's side may take now show.
 */
import { useState } from 'react';
import type { Deliverable } from '@raly/contracts/collaboration-work';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import { formatDate } from '@/lib/offer-format';
import { Badge } from '@/components/ui/badge';
import { Button, focusRing } from '@/components/ui/button';
import { EditDeliverablesForm } from '@/features/collaborations/components/edit-deliverables-form';
import { ReviewDeliverableForm } from '@/features/collaborations/components/review-deliverable-form';
import { SubmissionImage } from '@/features/collaborations/components/submission-image';
import { SubmitDeliverableForm } from '@/features/collaborations/components/submit-deliverable-form';
import {
  deliverableStatusLooks,
  mayEditDeliverables,
  mayReview,
  maySubmit,
  roundText,
} from '@/features/collaborations/utils/work';

export interface DeliverablesPanelProps {
  collaboration: CollaborationRecord;
  side: CollaborationParty;
}

export function DeliverablesPanel({ collaboration, side }: DeliverablesPanelProps) {
  const [editing, setEditing] = useState(false);
  const editable = mayEditDeliverables(collaboration, side);
  return (
    <section
      aria-labelledby="deliverables-heading"
      className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="deliverables-heading" className="text-lg font-semibold text-slate-900">
          Deliverables
        </h2>
        {editable && !editing && (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit deliverables
          </Button>
        )}
      </div>
      {editable && editing ? (
        <div className="mt-4">
          <EditDeliverablesForm
            collaborationId={collaboration.id}
            deliverables={collaboration.deliverables}
            onDone={() => setEditing(false)}
          />
        </div>
      ) : (
        <ol className="mt-4 divide-y divide-slate-200">
          {collaboration.deliverables.map((deliverable) => (
            <DeliverableItem
              key={deliverable.id}
              collaboration={collaboration}
              deliverable={deliverable}
              side={side}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function DeliverableItem({
  collaboration,
  deliverable,
  side,
}: DeliverablesPanelProps & { deliverable: Deliverable }) {
  const looks = deliverableStatusLooks[deliverable.status];
  const round = roundText(deliverable);
  return (
    <li
      aria-label={deliverable.title}
      data-deliverable-id={deliverable.id}
      data-status={deliverable.status}
      className="py-4 first:pt-0 last:pb-0"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 font-medium break-words text-slate-900">{deliverable.title}</h3>
        <span data-testid="deliverable-status">
          <Badge tone={looks.tone}>{looks.label}</Badge>
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {deliverable.dueAt ? (
          <>
            Due <time dateTime={deliverable.dueAt}>{formatDate(deliverable.dueAt)}</time>
          </>
        ) : (
          'No due date'
        )}
        {round && <> · {round}</>}
        {deliverable.status === 'submitted' && deliverable.reviewDueAt && (
          <>
            {' '}
            · approved automatically if not reviewed by{' '}
            <time dateTime={deliverable.reviewDueAt}>{formatDate(deliverable.reviewDueAt)}</time>
          </>
        )}
      </p>
      <History collaborationId={collaboration.id} deliverable={deliverable} />
      {maySubmit(collaboration, side, deliverable) && (
        <SubmitDeliverableForm
          collaborationId={collaboration.id}
          deliverableId={deliverable.id}
          title={deliverable.title}
        />
      )}
      {mayReview(collaboration, side, deliverable) && (
        <ReviewDeliverableForm collaborationId={collaboration.id} deliverable={deliverable} />
      )}
    </li>
  );
}

const reviewWords = {
  approved: 'Approved',
  changes_requested: 'Changes requested',
  disputed: 'Dispute opened',
} as const;

/** Submissions (link, note, image) and reviews of one deliverable, round by round, oldest first. */
function History({
  collaborationId,
  deliverable,
}: {
  collaborationId: string;
  deliverable: Deliverable;
}) {
  if (deliverable.submissions.length === 0) return null;
  return (
    <ol aria-label={`History of ${deliverable.title}`} className="mt-3 space-y-3">
      {deliverable.submissions.map((submission) => {
        const review = deliverable.reviews.find((each) => each.round === submission.round);
        return (
          <li
            key={submission.round}
            className="space-y-2 border-l-2 border-slate-200 pl-3 text-sm"
            data-round={submission.round}
          >
            <p className="text-slate-600">
              Round {submission.round}: handed in{' '}
              <time dateTime={submission.submittedAt}>{formatDate(submission.submittedAt)}</time>
            </p>
            <a
              href={submission.link}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className={`block rounded font-medium break-all text-indigo-700 hover:text-indigo-500 ${focusRing}`}
            >
              {submission.link}
            </a>
            {submission.note && (
              <p className="whitespace-pre-line text-slate-700">{submission.note}</p>
            )}
            {submission.imageId && (
              <SubmissionImage
                collaborationId={collaborationId}
                imageId={submission.imageId}
                round={submission.round}
              />
            )}
            {review && (
              <div
                data-testid="review"
                className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 ring-inset"
              >
                <p className="font-medium text-slate-900">
                  {review.automatic
                    ? 'Approved automatically: the review window passed'
                    : reviewWords[review.decision]}{' '}
                  <span className="font-normal text-slate-600">
                    · <time dateTime={review.reviewedAt}>{formatDate(review.reviewedAt)}</time>
                  </span>
                </p>
                {review.comment && (
                  <p className="mt-1 whitespace-pre-line text-slate-700">{review.comment}</p>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
