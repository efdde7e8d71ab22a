/**
 * Reviews after a completed collaboration, and the track record public
 * profiles show (docs/product-spec.md "Collaborations"). Once a
 * collaboration is completed each side may leave one review of the other:
 * 1–5 stars and an optional comment. A profile shows the reviews received
 * (average and count) and figures Raly computes from what happened in the
 * collaborations, never typed in by anyone. Shared by the collaborations
 * service, the BFF and the web forms, so each rule answers with the same
 * message everywhere.
 *
 * Privacy (spec preamble): a review names its author's side only, never a
 * person; the figures are counts, medians and shares.
 */
import { z } from 'zod';
import { looksLikeContactDetails } from './contact-details';
import { messages } from './messages';
import type { PublicBrandProfile, PublicCreatorProfile } from './offers';
import { multilineText } from './validation';

export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;
export const PARTY_REVIEW_COMMENT_MAX_LENGTH = 500;

const isoDate = z.string();

/** One side's review of the other: stars, an optional comment and when it was left. */
export const partyReviewSchema = z.object({
  rating: z.number().int().min(REVIEW_RATING_MIN).max(REVIEW_RATING_MAX),
  comment: z.string(),
  reviewedAt: isoDate,
});
export type PartyReview = z.infer<typeof partyReviewSchema>;

/**
 * The reviews of a collaboration, by the side that wrote them: `brand` is the
 * brand's review of the creator, `creator` the creator's review of the brand;
 * null until that side reviews. Defaults let older snapshots parse.
 */
export const partyReviewsSchema = z
  .object({
    brand: partyReviewSchema.nullable().default(null),
    creator: partyReviewSchema.nullable().default(null),
  })
  .default({ brand: null, creator: null });
export type PartyReviews = z.infer<typeof partyReviewsSchema>;

/**
 * `POST /collaborations/:id/review`: a party reviews the other side once the collaboration is
 * completed. A review cannot be changed and is no channel for contact details: a comment that
 * looks like it holds an e-mail address or a phone number is refused (reviewContactDetails),
 * where a message only asks its author to confirm.
 */
export const leaveReviewSchema = z.strictObject({
  rating: z
    .number(messages.reviewRatingRequired)
    .int(messages.reviewRatingRequired)
    .min(REVIEW_RATING_MIN, messages.reviewRatingRequired)
    .max(REVIEW_RATING_MAX, messages.reviewRatingRequired),
  comment: multilineText()
    .trim()
    .max(PARTY_REVIEW_COMMENT_MAX_LENGTH, messages.partyReviewCommentTooLong)
    .refine((comment) => !looksLikeContactDetails(comment), messages.reviewContactDetails)
    .optional()
    .default(''),
});
export type LeaveReview = z.infer<typeof leaveReviewSchema>;

/** Reviews received: the average stars (2 decimals; null with none) and how many. */
export const reviewSummarySchema = z.object({
  average: z.number().nullable(),
  count: z.number().int().nonnegative(),
});
export type ReviewSummary = z.infer<typeof reviewSummarySchema>;

/**
 * A brand's figures: the median hours from a submission to the brand's answer
 * (approved, changes requested or disputed; an automatic approval counts when
 * the review window passed) over `reviewedSubmissions` answers, and the median
 * hours from a payment falling due to the brand marking it paid over
 * `payments`. Null medians: no data yet. Hours carry one decimal.
 */
export const brandFiguresSchema = z.object({
  medianHoursToReview: z.number().nullable(),
  reviewedSubmissions: z.number().int().nonnegative(),
  medianHoursToPay: z.number().nullable(),
  payments: z.number().int().nonnegative(),
});
export type BrandFigures = z.infer<typeof brandFiguresSchema>;

/**
 * A creator's figures: of the deliverables the brand set a due date on
 * (`deliverablesWithDueDate`: handed in, or past the date while the
 * collaboration ran), the share (0–1, 3 decimals) first handed in by that
 * date; null: none yet.
 */
export const creatorFiguresSchema = z.object({
  onTimeShare: z.number().min(0).max(1).nullable(),
  deliverablesOnTime: z.number().int().nonnegative(),
  deliverablesWithDueDate: z.number().int().nonnegative(),
});
export type CreatorFigures = z.infer<typeof creatorFiguresSchema>;

/** `GET /public/brands/:brandId/track-record` of services/collaborations. */
export const brandTrackRecordSchema = z.object({
  reviews: reviewSummarySchema,
  figures: brandFiguresSchema,
});
export type BrandTrackRecord = z.infer<typeof brandTrackRecordSchema>;

/** `GET /public/creators/:creatorId/track-record` of services/collaborations. */
export const creatorTrackRecordSchema = z.object({
  reviews: reviewSummarySchema,
  figures: creatorFiguresSchema,
});
export type CreatorTrackRecord = z.infer<typeof creatorTrackRecordSchema>;

/** GET /api/public/users/:username: the creator's public profile and track record. */
export type PublicCreatorPage = PublicCreatorProfile & CreatorTrackRecord;

/** GET /api/public/brands/:username: the brand's public profile, open offers and track record. */
export type PublicBrandPage = PublicBrandProfile & BrandTrackRecord;
