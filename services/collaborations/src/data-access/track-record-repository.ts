/**
 * The figures of the public track records, computed in Postgres from what
 * the collaborations recorded as it happened (each deliverable's submissions
 * and reviews, the payment's dates, the reviews), never typed in. Read-only;
 * each query walks one side's collaborations through the brand_id /
 * creator_id indexes.
 */
import type { PrismaClient } from '../generated/prisma/client';
import { isUuid } from './ids';

/** Stars received: the sum's average (null with none) and the count. */
export interface ReviewRow {
  average: number | null;
  count: number;
}

/** A median in hours (null with no data) and how many values it is of. */
export interface MedianRow {
  medianHours: number | null;
  count: number;
}

export interface TrackRecordRepository {
  /**
   * The creators' reviews of a brand's collaborations. Every method answers nothing (no
   * reviews, no data) for an id that is not a uuid: brand and creator (user) ids are uuids.
   */
  reviewsOfBrand(brandId: string): Promise<ReviewRow>;
  /** The brands' reviews of a creator's collaborations. */
  reviewsOfCreator(creatorId: string): Promise<ReviewRow>;
  /**
   * Hours from each submission of a brand's deliverables to the answer of its round
   * (approved by hand or automatically, changes requested, disputed); unanswered ones are left out.
   */
  brandReviewTimes(brandId: string): Promise<MedianRow>;
  /** Hours from each of a brand's payments falling due to the brand marking it paid. */
  brandPaymentTimes(brandId: string): Promise<MedianRow>;
  /**
   * Of a creator's deliverables with a due date the brand set, those counted (handed in, or
   * whose due date passed while the collaboration was active) and those first handed in by it.
   */
  creatorDueDates(creatorId: string, now: Date): Promise<{ onTime: number; counted: number }>;
}

const noReviews: ReviewRow = { average: null, count: 0 };
const noMedian: MedianRow = { medianHours: null, count: 0 };

/** The repository over the service's Prisma client. */
export function trackRecordRepository(prisma: PrismaClient): TrackRecordRepository {
  const reviewsBy = async (rows: Promise<{ average: number | null; count: number }[]>) => {
    const [row] = await rows;
    return row ? { average: row.average, count: row.count } : noReviews;
  };
  const medianOf = async (rows: Promise<{ median: number | null; count: number }[]>) => {
    const [row] = await rows;
    return row ? { medianHours: row.median, count: row.count } : noMedian;
  };
  return {
    reviewsOfBrand: async (brandId) =>
      isUuid(brandId)
        ? reviewsBy(prisma.$queryRaw`
            SELECT avg((reviews->'creator'->>'rating')::int)::float8 AS average,
                   count(*)::int AS count
              FROM collaborations
             WHERE brand_id = ${brandId}::uuid
               AND jsonb_typeof(reviews->'creator') = 'object'`)
        : noReviews,
    reviewsOfCreator: async (creatorId) =>
      isUuid(creatorId)
        ? reviewsBy(prisma.$queryRaw`
            SELECT avg((reviews->'brand'->>'rating')::int)::float8 AS average,
                   count(*)::int AS count
              FROM collaborations
             WHERE creator_id = ${creatorId}
               AND jsonb_typeof(reviews->'brand') = 'object'`)
        : noReviews,
    brandReviewTimes: async (brandId) =>
      isUuid(brandId)
        ? medianOf(prisma.$queryRaw`
            SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY hours)::float8 AS median,
                   count(*)::int AS count
              FROM (SELECT extract(epoch FROM (r.value->>'reviewedAt')::timestamptz
                                            - (s.value->>'submittedAt')::timestamptz) / 3600 AS hours
                      FROM collaborations c
                     CROSS JOIN LATERAL jsonb_array_elements(c.deliverables) d
                     CROSS JOIN LATERAL jsonb_array_elements(d.value->'submissions') s
                      JOIN LATERAL jsonb_array_elements(d.value->'reviews') r
                        ON r.value->'round' = s.value->'round'
                     WHERE c.brand_id = ${brandId}::uuid) answers`)
        : noMedian,
    brandPaymentTimes: async (brandId) =>
      isUuid(brandId)
        ? medianOf(prisma.$queryRaw`
            SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY hours)::float8 AS median,
                   count(*)::int AS count
              FROM (SELECT extract(epoch FROM (payment->>'paidAt')::timestamptz
                                            - (payment->>'dueAt')::timestamptz) / 3600 AS hours
                      FROM collaborations
                     WHERE brand_id = ${brandId}::uuid
                       AND payment->>'paidAt' IS NOT NULL
                       AND payment->>'dueAt' IS NOT NULL) payments`)
        : noMedian,
    async creatorDueDates(creatorId, now) {
      if (!isUuid(creatorId)) return { onTime: 0, counted: 0 };
      const [row] = await prisma.$queryRaw<{ onTime: number; counted: number }[]>`
        SELECT (count(*) FILTER (WHERE first_at <= due_at))::int AS "onTime",
               count(*)::int AS counted
          FROM (SELECT (d.value->>'dueAt')::timestamptz AS due_at,
                       (SELECT min((s.value->>'submittedAt')::timestamptz)
                          FROM jsonb_array_elements(d.value->'submissions') s) AS first_at,
                       (c.cancellation->>'cancelledAt')::timestamptz AS cancelled_at
                  FROM collaborations c
                 CROSS JOIN LATERAL jsonb_array_elements(c.deliverables) d
                 WHERE c.creator_id = ${creatorId}
                   AND d.value->>'dueAt' IS NOT NULL) due
         WHERE first_at IS NOT NULL
            OR (due_at < ${now} AND (cancelled_at IS NULL OR cancelled_at > due_at))`;
      return row ?? { onTime: 0, counted: 0 };
    },
  };
}
