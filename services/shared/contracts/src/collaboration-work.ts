/**
 * The work of a collaboration (docs/product-spec.md "Collaborations"):
 * deliverables handed in and reviewed in counted rounds, the payment Raly
 * records (it never moves money), cancelling, and the timeline of what
 * happened. Shared by the collaborations service, the BFF and the web forms,
 * so each rule answers with the same message everywhere.
 */
import { z } from 'zod';
import { partyReviewsSchema } from './collaboration-reviews';
import { IMAGE_EXTENSIONS } from './constants';
import { messages } from './messages';
import { moneySchema } from './offers';
import { boundedText, isHttpUrl, multilineText } from './validation';

export const DELIVERABLES_MAX = 20;
export const DELIVERABLE_TITLE_MAX_LENGTH = 200;
export const SUBMISSION_NOTE_MAX_LENGTH = 1000;
export const SUBMISSION_LINK_MAX_LENGTH = 2048;
export const REVIEW_COMMENT_MAX_LENGTH = 1000;
export const PAYMENT_REFERENCE_MAX_LENGTH = 200;
export const CANCEL_REASON_MAX_LENGTH = 500;
/** Change requests a deliverable may get; past the last the brand can only approve or dispute. */
export const REVIEW_ROUNDS_MAX = 3;
/** Default hours a submission waits for the brand's review before it is approved automatically. */
export const REVIEW_WINDOW_HOURS_DEFAULT = 72;
/** Default days a due payment may go unconfirmed before both sides see it as overdue. */
export const PAYMENT_OVERDUE_DAYS_DEFAULT = 14;

/**
 * `pending` (nothing handed in) → `submitted` → `approved` | `changes_requested`
 * (→ `submitted` again) | `disputed` (past the last round, by the brand).
 */
export const DELIVERABLE_STATUSES = [
  'pending',
  'submitted',
  'changes_requested',
  'approved',
  'disputed',
] as const;
export type DeliverableStatus = (typeof DELIVERABLE_STATUSES)[number];

/**
 * `not_due` until every deliverable is approved, then `due`; the brand marks
 * it `paid`, the creator `confirmed` its receipt. `not_applicable` when the
 * compensation is a product (nothing to pay).
 */
export const PAYMENT_STATUSES = ['not_due', 'due', 'paid', 'confirmed', 'not_applicable'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

const isoDate = z.string();

/**
 * The id of an image handed in with a submission: a random uuid media made
 * when it stored the upload, and the image's extension (`<uuid>.png`).
 */
export const DELIVERABLE_IMAGE_ID_PATTERN = new RegExp(
  `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(${IMAGE_EXTENSIONS.join('|')})$`,
);

/**
 * Where media stores a submission's image in S3: under the collaboration,
 * outside the public keys of `GET /files/*`, so it is served only through
 * the collaboration to its parties.
 * @param imageId matches {@link DELIVERABLE_IMAGE_ID_PATTERN}
 */
export function deliverableImageKey(collaborationId: string, imageId: string): string {
  return `collaboration/${collaborationId}/deliverable-img/${imageId}`;
}

/** What media answers to a stored submission image (`POST /collaborations/:id/deliverable-images`). */
export const deliverableImageSchema = z.object({
  imageId: z.string().regex(DELIVERABLE_IMAGE_ID_PATTERN),
  contentType: z.string(),
  sizeBytes: z.number().int().positive(),
});
export type DeliverableImage = z.infer<typeof deliverableImageSchema>;

/**
 * One hand-in of a deliverable; `imageId` names its optional image (null, or
 * absent in a submission handed in before images existed: none).
 */
export const submissionSchema = z.object({
  round: z.number().int().positive(),
  link: z.string(),
  note: z.string(),
  imageId: z.string().nullable().optional(),
  submittedAt: isoDate,
});

/** The brand's answer to a submission. */
export const reviewSchema = z.object({
  round: z.number().int().positive(),
  decision: z.enum(['approved', 'changes_requested', 'disputed']),
  comment: z.string(),
  /** True when the review window passed and the sweep approved it. */
  automatic: z.boolean(),
  reviewedAt: isoDate,
});

/**
 * A deliverable: `changeRequests` counts the rounds of changes asked so far
 * ("changes requested, round 2 of 3"); `reviewDueAt` is when a submitted
 * one is approved automatically.
 */
export const deliverableSchema = z.object({
  id: z.string(),
  title: z.string(),
  dueAt: isoDate.nullable(),
  status: z.enum(DELIVERABLE_STATUSES),
  changeRequests: z.number().int().nonnegative(),
  reviewDueAt: isoDate.nullable(),
  submissions: z.array(submissionSchema),
  reviews: z.array(reviewSchema),
});
export type Deliverable = z.infer<typeof deliverableSchema>;

/** What Raly records of the payment (never the money itself). */
export const paymentSchema = z.object({
  status: z.enum(PAYMENT_STATUSES),
  /** The agreed rate, else a fixed compensation's amount; null for a product. */
  amount: moneySchema.nullable(),
  reference: z.string().nullable(),
  dueAt: isoDate.nullable(),
  paidAt: isoDate.nullable(),
  confirmedAt: isoDate.nullable(),
  /** Due and not confirmed within the overdue window (set by the sweep). */
  overdue: z.boolean(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const cancellationSchema = z.object({
  party: z.enum(['brand', 'creator']),
  reason: z.string(),
  cancelledAt: isoDate,
});

/** What happened, oldest first (messages aside: they have their own history). */
export const TIMELINE_KINDS = [
  'opened',
  'deliverables_set',
  'submitted',
  'approved',
  'auto_approved',
  'changes_requested',
  'disputed',
  'payment_due',
  'paid',
  'payment_confirmed',
  'payment_overdue',
  'completed',
  'cancelled',
  'reviewed',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const timelineEntrySchema = z.object({
  kind: z.enum(TIMELINE_KINDS),
  at: isoDate,
  /** Who acted; null for Raly itself (a sweep). */
  party: z.enum(['brand', 'creator']).nullable(),
  deliverableId: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/** Defaults that let a snapshot written before the work existed still parse. */
export const collaborationWorkShape = {
  deliverables: z.array(deliverableSchema).default([]),
  payment: paymentSchema.default({
    status: 'not_due',
    amount: null,
    reference: null,
    dueAt: null,
    paidAt: null,
    confirmedAt: null,
    overdue: false,
  }),
  cancellation: cancellationSchema.nullable().default(null),
  timeline: z.array(timelineEntrySchema).default([]),
  /** What each side said of the other once the collaboration completed (./collaboration-reviews). */
  reviews: partyReviewsSchema,
};

const futureOrAbsentDate = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), messages.dueDateInvalid)
  .nullable()
  .optional();

/** The brand splits the work at the start (before the first submission). */
export const setDeliverablesSchema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        title: boundedText(DELIVERABLE_TITLE_MAX_LENGTH, messages.deliverableTitleTooLong)
          .trim()
          .min(1, messages.deliverableTitleRequired),
        dueAt: futureOrAbsentDate,
      }),
    )
    .min(1, messages.deliverablesRequired)
    .max(DELIVERABLES_MAX, messages.deliverablesTooMany),
});
export type SetDeliverables = z.infer<typeof setDeliverablesSchema>;

/**
 * The creator hands in a deliverable: an http(s) link, a note and,
 * optionally, the id of an image uploaded for it first.
 */
export const submitDeliverableSchema = z.strictObject({
  link: boundedText(SUBMISSION_LINK_MAX_LENGTH, messages.urlTooLong)
    .trim()
    .min(1, messages.submissionLinkRequired)
    .refine(isHttpUrl, messages.urlHttpOrHttps),
  note: multilineText()
    .trim()
    .max(SUBMISSION_NOTE_MAX_LENGTH, messages.submissionNoteTooLong)
    .optional()
    .default(''),
  imageId: z
    .string(messages.requestProblem)
    .regex(DELIVERABLE_IMAGE_ID_PATTERN, messages.requestProblem)
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});
export type SubmitDeliverable = z.infer<typeof submitDeliverableSchema>;

/** The brand's review: approve, or request changes / dispute with a comment. */
export const reviewDeliverableSchema = z
  .strictObject({
    decision: z.enum(['approve', 'request_changes', 'dispute'], messages.requestProblem),
    comment: multilineText()
      .trim()
      .max(REVIEW_COMMENT_MAX_LENGTH, messages.reviewCommentTooLong)
      .optional()
      .default(''),
  })
  .refine((review) => review.decision === 'approve' || review.comment.length > 0, {
    message: messages.reviewCommentRequired,
    path: ['comment'],
  });
export type ReviewDeliverable = z.infer<typeof reviewDeliverableSchema>;

/** The brand marks the payment made, with an optional reference of its own. */
export const markPaidSchema = z.strictObject({
  reference: boundedText(PAYMENT_REFERENCE_MAX_LENGTH, messages.paymentReferenceTooLong)
    .trim()
    .optional()
    .default(''),
});
export type MarkPaid = z.infer<typeof markPaidSchema>;

/**
 * Cancelling: the brand may cancel without a reason before the first
 * submission; otherwise either side gives a reason the other sees (the
 * service checks which case applies and answers `cancelReasonRequired`).
 */
export const cancelCollaborationSchema = z.strictObject({
  reason: multilineText()
    .trim()
    .max(CANCEL_REASON_MAX_LENGTH, messages.cancelReasonTooLong)
    .optional()
    .default(''),
});
export type CancelCollaboration = z.infer<typeof cancelCollaborationSchema>;

/**
 * The deliverables a collaboration opens with: one per non-empty line of the
 * offer's deliverables (list markers dropped), at most {@link DELIVERABLES_MAX}
 * (the rest joined into the last); one item "Deliverables" when there is no text.
 * @param text the offer's deliverables as frozen in the terms
 * @returns the titles, each at most {@link DELIVERABLE_TITLE_MAX_LENGTH} characters
 */
export function deliverableTitlesOf(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter((line) => line.length > 0);
  if (lines.length === 0) return ['Deliverables'];
  const kept =
    lines.length > DELIVERABLES_MAX
      ? [...lines.slice(0, DELIVERABLES_MAX - 1), lines.slice(DELIVERABLES_MAX - 1).join('; ')]
      : lines;
  return kept.map((line) => line.slice(0, DELIVERABLE_TITLE_MAX_LENGTH));
}

/**
 * What the brand may still do with a submitted deliverable: approve, or
 * request changes while rounds remain; past the last round, approve or open
 * a dispute.
 * @param changeRequests rounds of changes asked so far
 */
export function reviewDecisionsFor(changeRequests: number): ReviewDeliverable['decision'][] {
  return changeRequests < REVIEW_ROUNDS_MAX
    ? ['approve', 'request_changes']
    : ['approve', 'dispute'];
}
