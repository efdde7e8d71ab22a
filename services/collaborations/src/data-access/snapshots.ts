/**
 * How collaboration and message rows map to their snapshots
 * (`CollaborationRecord`, `CollaborationMessageRecord` of
 * @raly/contracts/collaborations). The sender of a message is named by its
 * side's public handle, and a brand member also by their team handle; the
 * user who sent it stays in the row.
 */
import type {
  CollaborationMessageRecord,
  CollaborationParty,
  CollaborationRecord,
  CollaborationTerms,
} from '@raly/contracts/collaborations';
import type { BrandSummary } from '@raly/contracts/offers';
import type { Collaboration, CollaborationMessage } from '../generated/prisma/client';

/** A collaboration row's per-side columns. */
export const partyColumns = {
  brand: { unread: 'unreadBrand', seenSequence: 'seenSequenceBrand' },
  creator: { unread: 'unreadCreator', seenSequence: 'seenSequenceCreator' },
} as const satisfies Record<CollaborationParty, { unread: string; seenSequence: string }>;

/** The other side of a collaboration. */
export const otherParty = (party: CollaborationParty): CollaborationParty =>
  party === 'brand' ? 'creator' : 'brand';

/** A collaboration row as its snapshot. */
export function toCollaborationRecord(row: Collaboration): CollaborationRecord {
  return {
    id: row.id,
    version: row.version,
    applicationId: row.applicationId,
    offerId: row.offerId,
    brandId: row.brandId,
    creatorId: row.creatorId,
    offer: { id: row.offerId, title: row.offerTitle },
    brand: row.brand as BrandSummary,
    creator: {
      id: row.creatorId,
      username: row.creatorUsername,
      profileImg: row.creatorProfileImg,
    },
    terms: row.terms as CollaborationTerms | null,
    status: row.status,
    messageCount: row.messageCount,
    lastMessageAt: row.lastMessageAt?.toISOString() ?? null,
    unread: { brand: row.unreadBrand, creator: row.unreadCreator },
    seenSequence: { brand: row.seenSequenceBrand, creator: row.seenSequenceCreator },
    // Written only from these shapes (./collaboration-repository), so read back as they are.
    deliverables: row.deliverables as CollaborationRecord['deliverables'],
    payment: row.payment as CollaborationRecord['payment'],
    cancellation: row.cancellation as CollaborationRecord['cancellation'],
    timeline: row.timeline as CollaborationRecord['timeline'],
    reviews: row.reviews as CollaborationRecord['reviews'],
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/**
 * Between the brand's username and the sending member's handle in a brand
 * message's stored `sender_handle` ("acme/sam"): usernames and handles are
 * letters and digits only, so it never occurs in either. A message without
 * it (a creator's, or a member's without a handle) stores the side's handle only.
 */
const MEMBER_HANDLE_SEPARATOR = '/';

/**
 * What a brand message's `sender_handle` carries after the brand's username.
 * @returns the separator and the member's handle, or '' without one (null or empty)
 */
export const memberHandleSuffix = (memberHandle: string | null | undefined): string =>
  memberHandle ? `${MEMBER_HANDLE_SEPARATOR}${memberHandle}` : '';

/** @returns the `sender_handle` column of a message sent by `sender` (see toMessageRecord) */
export function storedSenderHandle(sender: {
  party: CollaborationParty;
  handle: string;
  memberHandle?: string | null;
}): string {
  return sender.party === 'brand'
    ? `${sender.handle}${memberHandleSuffix(sender.memberHandle)}`
    : sender.handle;
}

/** A message row as its snapshot (immutable: version 1). */
export function toMessageRecord(row: CollaborationMessage): CollaborationMessageRecord {
  const [handle = row.senderHandle, memberHandle] = row.senderHandle.split(MEMBER_HANDLE_SEPARATOR);
  return {
    id: row.id,
    version: 1,
    collaborationId: row.collaborationId,
    clientId: row.clientId,
    sequence: row.sequence,
    sender: {
      party: row.senderParty,
      handle,
      ...(row.senderParty === 'brand' && memberHandle ? { memberHandle } : {}),
    },
    body: row.body,
    created: row.created.toISOString(),
  };
}
