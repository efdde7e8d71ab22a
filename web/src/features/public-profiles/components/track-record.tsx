/**
 * What a public profile shows of a side's collaborations: the reviews it
 * received (average and count) and the figures Raly computes from what
 * happened, never typed in — a brand's median time to review a submission
 * and to pay, a creator's share of deliverables handed in by the due date
 * the brand set. "—" and a short text where there is no data yet.
 */
import type { ReactNode } from 'react';
import type {
  BrandFigures,
  CreatorFigures,
  ReviewSummary,
} from '@raly/contracts/collaboration-reviews';
import { Stars } from '@/components/reviews/stars';

/** A duration in hours in words: "under an hour", "5 hours", "3.5 days". */
export function hoursInWords(hours: number): string {
  if (hours < 1) return 'under an hour';
  if (hours < 48) return Math.round(hours) === 1 ? '1 hour' : `${Math.round(hours)} hours`;
  return `${Number((hours / 24).toFixed(1))} days`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** One figure: its name, its value (or "—") and what it is based on. */
function Figure({
  name,
  testId,
  value,
  basis,
}: {
  name: string;
  testId: string;
  value: string | null;
  basis: string;
}) {
  return (
    <div
      data-testid={testId}
      className="rounded-md bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
    >
      <dt className="text-sm text-slate-600">{name}</dt>
      <dd className="mt-1">
        <span className="text-lg font-semibold text-slate-900">{value ?? '—'}</span>
        <span className="block text-xs text-slate-500">{basis}</span>
      </dd>
    </div>
  );
}

function ReviewsFigure({ reviews }: { reviews: ReviewSummary }) {
  return (
    <div
      data-testid="reviews-summary"
      className="rounded-md bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
    >
      <dt className="text-sm text-slate-600">Reviews</dt>
      <dd className="mt-1">
        {reviews.average === null ? (
          <>
            <span className="text-lg font-semibold text-slate-900">—</span>
            <span className="block text-xs text-slate-500">No reviews yet</span>
          </>
        ) : (
          <>
            <span className="flex items-center gap-2 text-lg font-semibold text-slate-900">
              {reviews.average.toFixed(1)} <Stars rating={reviews.average} />
            </span>
            <span className="block text-xs text-slate-500">
              {plural(reviews.count, 'review', 'reviews')}
            </span>
          </>
        )}
      </dd>
    </div>
  );
}

/** The frame of a track record: heading, the reviews, then the side's figures. */
function TrackRecord({ reviews, children }: { reviews: ReviewSummary; children: ReactNode }) {
  return (
    <section
      aria-labelledby="track-record-heading"
      className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="track-record-heading" className="text-lg font-semibold text-slate-900">
        Track record
      </h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <ReviewsFigure reviews={reviews} />
        {children}
      </dl>
      <p className="mt-3 text-xs text-slate-500">
        Computed by Raly from completed work on Raly; nobody types these in.
      </p>
    </section>
  );
}

export function BrandTrackRecord({
  reviews,
  figures,
}: {
  reviews: ReviewSummary;
  figures: BrandFigures;
}) {
  return (
    <TrackRecord reviews={reviews}>
      <Figure
        name="Median time to review a submission"
        testId="median-review-time"
        value={
          figures.medianHoursToReview === null ? null : hoursInWords(figures.medianHoursToReview)
        }
        basis={
          figures.reviewedSubmissions
            ? `Over ${plural(figures.reviewedSubmissions, 'submission', 'submissions')}`
            : 'No submissions reviewed yet'
        }
      />
      <Figure
        name="Median time to pay"
        testId="median-payment-time"
        value={figures.medianHoursToPay === null ? null : hoursInWords(figures.medianHoursToPay)}
        basis={
          figures.payments
            ? `Over ${plural(figures.payments, 'payment', 'payments')}`
            : 'No payments yet'
        }
      />
    </TrackRecord>
  );
}

export function CreatorTrackRecord({
  reviews,
  figures,
}: {
  reviews: ReviewSummary;
  figures: CreatorFigures;
}) {
  return (
    <TrackRecord reviews={reviews}>
      <Figure
        name="Deliverables handed in by the due date"
        testId="on-time-share"
        value={figures.onTimeShare === null ? null : `${Math.round(figures.onTimeShare * 100)}%`}
        basis={
          figures.deliverablesWithDueDate
            ? `${figures.deliverablesOnTime} of ${plural(figures.deliverablesWithDueDate, 'deliverable', 'deliverables')} with a due date`
            : 'No deliverables with a due date yet'
        }
      />
    </TrackRecord>
  );
}
