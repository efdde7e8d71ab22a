/**
 * Collaborations: what follows an accepted application (docs/product-spec.md
 * "Collaborations"). A collaboration joins one creator and one brand on the
 * terms frozen when the brand accepted; its parties talk in messages. The
 * snapshots here travel on `collaborations.collaboration.v1` and
 * `collaborations.message.v1`, through the BFF and to both parties' tabs.
 *
 * Privacy (spec preamble): parties are named by username (the creator) or by
 * the brand's public summary, never by a first name, last name, e-mail or
 * phone number. A person may write their own contact details in a message
 * after a notice ({@link looksLikeContactDetails}); Raly never adds any.
 */
import { z } from 'zod';
import { collaborationWorkShape } from './collaboration-work';
import { messages } from './messages';
import {
  brandSummarySchema,
  compensationSchema,
  moneySchema,
  publicCreatorProfileSchema,
} from './offers';
import { multilineText } from './validation';

export { looksLikeContactDetails } from './contact-details';

export const MESSAGE_MAX_LENGTH = 2000;
export const MESSAGES_PAGE_SIZE_DEFAULT = 30;
export const MESSAGES_PAGE_SIZE_MAX = 100;
export const COLLABORATIONS_PAGE_SIZE_MAX = 100;

/** The two sides of a collaboration. */
export const COLLABORATION_PARTIES = ['brand', 'creator'] as const;
export type CollaborationParty = (typeof COLLABORATION_PARTIES)[number];

/** `active` until the work is approved and paid (`completed`) or a side cancels (`cancelled`). */
export const COLLABORATION_STATUSES = ['active', 'completed', 'cancelled'] as const;
export type CollaborationStatus = (typeof COLLABORATION_STATUSES)[number];

const isoDate = z.string();

/**
 * The terms as they stood when the brand accepted: the offer's deliverables
 * and compensation, and the creator's proposed rate when one was accepted
 * with the application (it then replaces a fixed compensation's amount).
 */
export const collaborationTermsSchema = z.object({
  deliverables: z.string(),
  compensation: compensationSchema,
  agreedRate: moneySchema.nullable(),
});
export type CollaborationTerms = z.infer<typeof collaborationTermsSchema>;

/** Per party: how many of the other party's messages it has not seen. */
export const partyCountsSchema = z.object({
  brand: z.number().int().nonnegative(),
  creator: z.number().int().nonnegative(),
});

/**
 * The collaboration snapshot (topic `collaborations.collaboration.v1`, key =
 * collaboration id). It goes to the creator and to the members of the brand.
 * `seenSequence` is, per party, the highest message sequence that party has
 * seen (0: none); a message is "seen" by the other side when its sequence is
 * at most the other side's `seenSequence`.
 */
export const collaborationRecordSchema = z.object({
  id: z.string(),
  version: z.number().int().nonnegative(),
  applicationId: z.string(),
  offerId: z.string(),
  brandId: z.string(),
  creatorId: z.string(),
  offer: z.object({ id: z.string(), title: z.string() }),
  brand: brandSummarySchema,
  creator: publicCreatorProfileSchema.pick({ id: true, username: true, profileImg: true }),
  /** Null only when the accepted application's snapshot predates carrying its offer's terms. */
  terms: collaborationTermsSchema.nullable(),
  status: z.enum(COLLABORATION_STATUSES),
  /** Messages in the conversation; the newest has this sequence. */
  messageCount: z.number().int().nonnegative(),
  lastMessageAt: isoDate.nullable(),
  unread: partyCountsSchema,
  seenSequence: partyCountsSchema,
  ...collaborationWorkShape,
  created: isoDate,
  updated: isoDate,
});
export type CollaborationRecord = z.infer<typeof collaborationRecordSchema>;

/**
 * One message (topic `collaborations.message.v1`, key = collaboration id, so
 * a conversation's messages stay in order). Immutable: its version is 1.
 * `sequence` counts from 1 per collaboration; `clientId` is the id the
 * sender's browser made, so a retried send is stored and shown once.
 */
export const collaborationMessageRecordSchema = z.object({
  id: z.string(),
  version: z.number().int().nonnegative(),
  collaborationId: z.string(),
  clientId: z.string(),
  sequence: z.number().int().positive(),
  /**
   * The side and its public handle (the creator's or the brand's username);
   * `memberHandle`: the handle in the brand's team of the member who sent it,
   * when they had one (docs/product-spec.md §13). Never a name or an e-mail.
   */
  sender: z.object({
    party: z.enum(COLLABORATION_PARTIES),
    handle: z.string(),
    memberHandle: z.string().optional(),
  }),
  body: z.string(),
  created: isoDate,
  /**
   * The collaboration's version once it counted this message: on the send's answer, its
   * event and its push (absent from the history and from a retried send's answer). A tab
   * counts the message on the record it holds with it ({@link countedBy}); the service's
   * snapshot of that version is stored but not pushed.
   */
  collaborationVersion: z.number().int().positive().optional(),
});
export type CollaborationMessageRecord = z.infer<typeof collaborationMessageRecordSchema>;

/**
 * A message as its author sends it. `confirmContactDetails` is true once the
 * author has read the notice for a body that {@link looksLikeContactDetails};
 * without it such a body is refused with `contactDetailsNotice` (409).
 */
export const sendMessageSchema = z.strictObject({
  clientId: z.uuid(messages.requestProblem),
  body: multilineText()
    .trim()
    .min(1, messages.messageRequired)
    .max(MESSAGE_MAX_LENGTH, messages.messageTooLong),
  confirmContactDetails: z.boolean().optional(),
});
export type SendMessage = z.infer<typeof sendMessageSchema>;

/** Marks the conversation seen up to a sequence (higher than before, else nothing changes). */
export const markSeenSchema = z.strictObject({
  sequence: z
    .number(messages.requestProblem)
    .int(messages.requestProblem)
    .min(0)
    .max(2 ** 31 - 1),
});
export type MarkSeen = z.infer<typeof markSeenSchema>;

/**
 * A page of history, newest first: `before` is the sequence to start below
 * (absent: from the newest), `limit` the page size.
 */
export const messagesQuerySchema = z.object({
  before: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1)
    .optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MESSAGES_PAGE_SIZE_MAX)
    .optional()
    .default(MESSAGES_PAGE_SIZE_DEFAULT),
});
export type MessagesQuery = z.infer<typeof messagesQuerySchema>;

/** A page of messages, newest first; `nextBefore` asks for the older page (null: none left). */
export interface MessagesPage {
  items: CollaborationMessageRecord[];
  nextBefore: number | null;
}

/**
 * The side of a collaboration a user is on, or null for anyone else.
 * @param collaboration its `creatorId` and `brandId`
 * @param user the user's id and, for a brand-side user, their brand's id
 */
export function partyOf(
  collaboration: Pick<CollaborationRecord, 'creatorId' | 'brandId'>,
  user: { id: string; brandId: string | null },
): CollaborationParty | null {
  if (user.id === collaboration.creatorId) return 'creator';
  if (user.brandId !== null && user.brandId === collaboration.brandId) return 'brand';
  return null;
}

/** The other side of a collaboration. */
const otherParty = (party: CollaborationParty): CollaborationParty =>
  party === 'brand' ? 'creator' : 'brand';

/**
 * The collaboration as the send of `message` left it, counted the way the
 * service counts a message (docs/product-spec.md §13.2): the message count is
 * its sequence, the last message time its `created`, the other side's unread
 * one more, the version `message.collaborationVersion`. So a tab that holds
 * the record and is pushed the message needs no snapshot of its own.
 * @param collaboration the record the tab holds
 * @param message a message of that collaboration
 * @returns the counted record; `collaboration` itself when it already counts the message
 *   (its version is as high) or the message carries no version (a retried send's answer);
 *   null when a change between the two is missing (read the record again)
 */
export function countedBy(
  collaboration: CollaborationRecord,
  message: Pick<
    CollaborationMessageRecord,
    'collaborationId' | 'collaborationVersion' | 'sequence' | 'sender' | 'created'
  >,
): CollaborationRecord | null {
  const version = message.collaborationVersion;
  if (message.collaborationId !== collaboration.id || version === undefined) return collaboration;
  if (version <= collaboration.version) return collaboration;
  if (version !== collaboration.version + 1 || message.sequence !== collaboration.messageCount + 1)
    return null;
  const recipient = otherParty(message.sender.party);
  return {
    ...collaboration,
    version,
    messageCount: message.sequence,
    lastMessageAt: message.created,
    unread: { ...collaboration.unread, [recipient]: collaboration.unread[recipient] + 1 },
    updated: message.created,
  };
}
