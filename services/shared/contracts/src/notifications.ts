/**
 * Notifications (docs/product-spec.md "Notifications"): what a person is
 * told about offers, applications, collaborations and their own reports, the shape of one item
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
import { reportItemKinds, reportOutcomes } from './reports';

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
 * - `review_received`: the side the other reviewed once the collaboration completed;
 * - `report_resolved`: the reporter, once staff resolved their report (docs/console.md "Reports").
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
  'report_resolved',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

const isoDate = z.string();

/**
 * What an item of a resolved report (`report_resolved`) tells its reporter: the reported item's
 * kind and staff's outcome (its words: `reportOutcomeWords`). Never whom the report accused nor
 * the staff member (`reporterViewOf`).
 */
export const notificationReportSchema = z.object({
  itemKind: z.enum(reportItemKinds),
  outcome: z.enum(reportOutcomes),
});
export type NotificationReport = z.infer<typeof notificationReportSchema>;

/**
 * One item of a person's inbox. The ids say what it links to (an offer, an
 * application's offer, a collaboration); `title` is the offer's title (for a
 * report: the label the reporter saw, empty for a message, whose text is never
 * copied) and `counterpart` the other side's public handle (null when there is
 * none); `report` is the outcome of the person's report (null but for `report_resolved`).
 */
export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  offerId: z.string().nullable(),
  applicationId: z.string().nullable(),
  collaborationId: z.string().nullable(),
  title: z.string(),
  counterpart: z.string().nullable(),
  report: notificationReportSchema.nullable(),
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

/**
 * What a person can turn on or off, by category and channel (docs/product-spec.md §12.5):
 * - `offers`: `offer_matched` (creators only; the account form's `notifications.offers` decides
 *   whether offers reach them at all, these switches refine it);
 * - `applications`: an application received, accepted, declined or withdrawn;
 * - `collaborations`: the work of a collaboration (messages, submissions, change requests,
 *   approvals, disputes, payments, reviews, review reminders);
 * - `digest`: the e-mail digest itself (e-mail only): what the digest's one-click unsubscribe
 *   turns off, so off means no e-mail of any category.
 */
export const NOTIFICATION_CATEGORIES = [
  'offers',
  'applications',
  'collaborations',
  'digest',
] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** Where an item reaches its person: the inbox in the app, or the e-mail digest. */
export const NOTIFICATION_CHANNELS = ['in_app', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** The channels each category has (`digest` is an e-mail; it has no in-app side). */
export const CHANNELS_OF_CATEGORY = {
  offers: ['in_app', 'email'],
  applications: ['in_app', 'email'],
  collaborations: ['in_app', 'email'],
  digest: ['email'],
} as const satisfies Record<NotificationCategory, readonly NotificationChannel[]>;

/**
 * The category of each kind of item (`digest` is none's: it is the e-mail, not a kind). A kind
 * without a category (null) answers the person's own request — the outcome of their report —
 * and cannot be turned off: it always reaches their inbox, and their digest unless the digest's
 * e-mail is off.
 */
export const CATEGORY_OF_KIND: Record<
  NotificationKind,
  Exclude<NotificationCategory, 'digest'> | null
> = {
  offer_matched: 'offers',
  application_received: 'applications',
  application_accepted: 'applications',
  application_declined: 'applications',
  application_withdrawn: 'applications',
  message_received: 'collaborations',
  deliverable_submitted: 'collaborations',
  changes_requested: 'collaborations',
  deliverable_approved: 'collaborations',
  review_disputed: 'collaborations',
  auto_approval_due: 'collaborations',
  deliverable_auto_approved: 'collaborations',
  payment_marked: 'collaborations',
  payment_overdue: 'collaborations',
  review_received: 'collaborations',
  report_resolved: null,
};

/**
 * A person's switches, every category with each of its channels (true: on). Everything is on
 * until the person turns it off; the one-click unsubscribe of a digest turns `digest.email` off.
 */
export interface NotificationPreferences {
  offers: { in_app: boolean; email: boolean };
  applications: { in_app: boolean; email: boolean };
  collaborations: { in_app: boolean; email: boolean };
  digest: { email: boolean };
}

/** Everything on: a person who never changed a switch. */
export const defaultNotificationPreferences = (): NotificationPreferences => ({
  offers: { in_app: true, email: true },
  applications: { in_app: true, email: true },
  collaborations: { in_app: true, email: true },
  digest: { email: true },
});

const preferenceSwitch = z.boolean(messages.notificationPreferencesInvalid);
const bothChannels = z
  .strictObject(
    { in_app: preferenceSwitch.optional(), email: preferenceSwitch.optional() },
    messages.notificationPreferencesInvalid,
  )
  .optional();

/**
 * PUT /preferences (the service) and PUT /api/notifications/preferences (the BFF): the switches
 * to change, by category and channel (those left out stay as they are), at least one. An
 * unknown category or channel, a value that is not a boolean, or nothing to change is refused
 * with messages.notificationPreferencesInvalid.
 */
export const notificationPreferencesUpdateSchema = z
  .strictObject(
    {
      offers: bothChannels,
      applications: bothChannels,
      collaborations: bothChannels,
      digest: z
        .strictObject(
          { email: preferenceSwitch.optional() },
          messages.notificationPreferencesInvalid,
        )
        .optional(),
    },
    messages.notificationPreferencesInvalid,
  )
  .refine((update) => switchesOf(update).length > 0, messages.notificationPreferencesInvalid);
export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateSchema>;

/** One switch of a category's channel. */
export interface PreferenceSwitch {
  category: NotificationCategory;
  channel: NotificationChannel;
  enabled: boolean;
}

/** The switches an update (or a whole {@link NotificationPreferences}) sets, in a stable order. */
export function switchesOf(
  update: Partial<Record<NotificationCategory, Partial<Record<NotificationChannel, boolean>>>>,
): PreferenceSwitch[] {
  const switches: PreferenceSwitch[] = [];
  for (const category of NOTIFICATION_CATEGORIES)
    for (const channel of CHANNELS_OF_CATEGORY[category]) {
      const enabled = update[category]?.[channel];
      if (enabled !== undefined) switches.push({ category, channel, enabled });
    }
  return switches;
}
