/**
 * Public track records (docs/product-spec.md "Collaborations"): what a
 * brand's or a creator's public profile shows of their collaborations — the
 * reviews the other sides left (average, count) and figures computed from
 * what happened, never typed in. A brand: the median hours to answer a
 * submission and to pay a due payment. A creator: the share of deliverables
 * handed in by the due date the brand set (the deliverable's `dueAt`; the
 * offer's terms carry no date, so deliverables without one are not counted).
 * Anyone may read them: counts, medians and shares only, nobody's name.
 */
import type {
  BrandTrackRecord,
  CreatorTrackRecord,
  ReviewSummary,
} from '@raly/contracts/collaboration-reviews';
import type { ReviewRow, TrackRecordRepository } from '../data-access/track-record-repository';

/** Rounds to `decimals` places; null stays null. */
const rounded = (value: number | null, decimals: number): number | null =>
  value === null ? null : Math.round(value * 10 ** decimals) / 10 ** decimals;

const summaryOf = (row: ReviewRow): ReviewSummary => ({
  average: row.count > 0 ? rounded(row.average, 2) : null,
  count: row.count,
});

/**
 * `GET /public/brands/:brandId/track-record`.
 * @param brandId any string (a brand with no collaborations, or no such brand: no data)
 * @returns reviews received (average 2 decimals) and median hours (1 decimal) to review and to pay
 */
export async function brandTrackRecord(
  trackRecords: TrackRecordRepository,
  brandId: string,
): Promise<BrandTrackRecord> {
  const [reviews, reviewTimes, paymentTimes] = await Promise.all([
    trackRecords.reviewsOfBrand(brandId),
    trackRecords.brandReviewTimes(brandId),
    trackRecords.brandPaymentTimes(brandId),
  ]);
  return {
    reviews: summaryOf(reviews),
    figures: {
      medianHoursToReview: rounded(reviewTimes.medianHours, 1),
      reviewedSubmissions: reviewTimes.count,
      medianHoursToPay: rounded(paymentTimes.medianHours, 1),
      payments: paymentTimes.count,
    },
  };
}

/**
 * `GET /public/creators/:creatorId/track-record`.
 * @param creatorId any string (the creator's user id; anything else: no data)
 * @param now what "the due date passed" is measured against
 * @returns reviews received and the share (0–1, 3 decimals) of deliverables handed in on time
 */
export async function creatorTrackRecord(
  trackRecords: TrackRecordRepository,
  creatorId: string,
  now = new Date(),
): Promise<CreatorTrackRecord> {
  const [reviews, dueDates] = await Promise.all([
    trackRecords.reviewsOfCreator(creatorId),
    trackRecords.creatorDueDates(creatorId, now),
  ]);
  return {
    reviews: summaryOf(reviews),
    figures: {
      onTimeShare: dueDates.counted > 0 ? rounded(dueDates.onTime / dueDates.counted, 3) : null,
      deliverablesOnTime: dueDates.onTime,
      deliverablesWithDueDate: dueDates.counted,
    },
  };
}
