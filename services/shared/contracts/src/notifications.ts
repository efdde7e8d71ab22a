/**
 * Notifications (docs/product-spec.md "Notifications"): what a person is
 * told about offers, applications and collaborations, the shape of one item
 * of their inbox, the inbox snapshot that travels on `notifications.inbox.v1`
 * (key = the person's user id) to the BFF's read model, and the list's query.
 *
 * Privacy (spec preamble): an item holds ids, its kind and safe display
 * fields only — an offer's title and the other side's public handle (a
 * creator's username or a brand's name) — never a first name, last name,
 * e-mail or phone number, and never a message's text.
 */
import { z } from 'zod';
import { messages } from './messages';

export const NOTIFICATIONS_PAGE_SIZE_DEFAULT = 20;
export const NOTIFICATIONS_PAGE_SIZE_MAX = 50;
/** How many of the newest items' ids an inbox snapshot carries. */
export const INBOX_LATEST_MAX = 5;

/**
 * What an item is about, and who gets it:
 * - `offer_matched`: an offer opened in one of a creator's interests (creators with offer notifications on);
 * - `application_received` / `application_withdrawn`: the members of the offer's brand;
 * - `application_accepted` / `application_declined`: the applicant;
 * - `message_received`: the other side of a collaboration;
 * - `deliverable_submitted`: the brand's members;
 * - `changes_requested` / `deliverable_approved` / `review_disputed`: the creator;
 * - `auto_approval_due`: the brand's members, before a submission is approved for lack of a review;
 * - `deliverable_auto_approved`: both sides;
 * - `payment_marked`: the creator (the brand marked the payment made);
 * - `payment_overdue`: both sides;
 * - `review_received`: the side the other reviewed once the collaboration completed.
 */
export const NOTIFICATION_KINDS = [
  'offer_matched',
  'application_received',
  'application_accepted',
  'application_declined',
  'application_withdrawn',
  'message_received',
  'deliverable_submitted',
  'changes_requested',
  'deliverable_approved',
  'review_disputed',
  'auto_approval_due',
  'deliverable_auto_approved',
  'payment_marked',
  'payment_overdue',
  'review_received',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

const isoDate = z.string();

/**
 * One item of a person's inbox. The ids say what it links to (an offer, an
 * application's offer, a collaboration); `title` is the offer's title and
 * `counterpart` the other side's public handle (null when there is none).
 */
export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  offerId: z.string().nullable(),
  applicationId: z.string().nullable(),
  collaborationId: z.string().nullable(),
  title: z.string(),
  counterpart: z.string().nullable(),
  read: z.boolean(),
  created: isoDate,
});
export type Notification = z.infer<typeof notificationSchema>;

/**
 * The inbox snapshot (topic `notifications.inbox.v1`, key = the person's
 * user id, `id` = that user id): how many items are unread and the ids of
 * the newest ones. Its version grows by one with every change (an item
 * added, one or all read), so a reader keeps the higher.
 */
export const inboxRecordSchema = z.object({
  id: z.string(),
  version: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
  latest: z.array(z.string()).max(INBOX_LATEST_MAX),
  updated: isoDate,
});
export type InboxRecord = z.infer<typeof inboxRecordSchema>;

/** An inbox nobody wrote to yet (version 0). */
export const emptyInbox = (userId: string): InboxRecord => ({
  id: userId,
  version: 0,
  unread: 0,
  latest: [],
  updated: new Date(0).toISOString(),
});

/**
 * GET /notifications?cursor=&limit=: newest first; `cursor` is the
 * `nextCursor` of the page before (absent: from the newest).
 */
export const notificationsQuerySchema = z.object({
  cursor: z
    .string(messages.requestProblem)
    .regex(/^[1-9]\d{0,17}$/, messages.requestProblem)
    .optional(),
  limit: z.coerce
    .number(messages.requestProblem)
    .int(messages.requestProblem)
    .min(1, messages.requestProblem)
    .max(NOTIFICATIONS_PAGE_SIZE_MAX, messages.requestProblem)
    .optional()
    .default(NOTIFICATIONS_PAGE_SIZE_DEFAULT),
});
export type NotificationsQuery = z.infer<typeof notificationsQuerySchema>;

/** A page of the inbox, newest first; `nextCursor` asks for the older page (null: none left). */
export interface NotificationsPage {
  items: Notification[];
  nextCursor: string | null;
  /** The inbox as it stood when the page was read (its unread count). */
  inbox: InboxRecord;
}

/** The e-mail categories a person can turn off with an e-mail's one-click unsubscribe link. */
export const EMAIL_CATEGORIES = ['digest'] as const;
export type EmailCategory = (typeof EMAIL_CATEGORIES)[number];

/** POST /unsubscribe/:token (the service) and POST /api/unsubscribe/:token (the BFF), RFC 8058. */
export interface UnsubscribeRecord {
  category: EmailCategory;
  unsubscribed: true;
}

/** An unsubscribe token's shape (`<payload>.<signature>`, base64url): anything else is refused unread. */
export const UNSUBSCRIBE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,400}\.[A-Za-z0-9_-]{1,100}$/;
