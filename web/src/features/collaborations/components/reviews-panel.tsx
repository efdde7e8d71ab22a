/**
 * The reviews of a completed collaboration as one party sees them: its own
 * review, or the form to leave it (once), and the other side's review once
 * given; both change live when either side reviews.
 */
import type { PartyReview } from '@raly/contracts/collaboration-reviews';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import { formatDate } from '@/lib/offer-format';
import { Stars } from '@/components/reviews/stars';
import { LeaveReviewForm } from '@/features/collaborations/components/leave-review-form';
import { otherSide } from '@/features/collaborations/utils/conversation';
import { counterpartOf } from '@/features/collaborations/utils/counterpart';

export function ReviewsPanel({
  collaboration,
  side,
}: {
  collaboration: Pick<CollaborationRecord, 'id' | 'reviews' | 'brand' | 'creator'>;
  side: CollaborationParty;
}) {
  const counterpart = counterpartOf(collaboration, side).name;
  const mine = collaboration.reviews[side];
  const theirs = collaboration.reviews[otherSide(side)];
  return (
    <section
      aria-labelledby="reviews-heading"
      className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="reviews-heading" className="text-lg font-semibold text-slate-900">
        Reviews
      </h2>
      <div className="mt-4 grid gap-6 sm:grid-cols-2">
        <section aria-label="Your review" data-testid="my-review">
          <h3 className="text-sm font-semibold text-slate-900">Your review of {counterpart}</h3>
          {mine ? (
            <ReviewText review={mine} />
          ) : (
            <LeaveReviewForm collaborationId={collaboration.id} reviewee={counterpart} />
          )}
        </section>
        <section aria-label={`Review by ${counterpart}`} data-testid="their-review">
          <h3 className="text-sm font-semibold text-slate-900">{counterpart}’s review of you</h3>
          {theirs ? (
            <ReviewText review={theirs} />
          ) : (
            <p className="mt-2 text-sm text-slate-600">Not reviewed yet.</p>
          )}
        </section>
      </div>
    </section>
  );
}

function ReviewText({ review }: { review: PartyReview }) {
  return (
    <div className="mt-2 space-y-1 text-sm" data-rating={review.rating}>
      <Stars rating={review.rating} />
      {review.comment && <p className="whitespace-pre-line text-slate-800">“{review.comment}”</p>}
      <time dateTime={review.reviewedAt} className="block text-xs text-slate-500">
        {formatDate(review.reviewedAt)}
      </time>
    </div>
  );
}
