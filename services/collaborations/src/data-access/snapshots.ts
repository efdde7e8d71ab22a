/**
 * How collaboration and message rows map to their snapshots
 * (`CollaborationRecord`, `CollaborationMessageRecord` of
 * @raly/contracts/collaborations). The sender of a message is named by its
 * side's public handle only; the user who sent it stays in the row.
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

/** A message row as its snapshot (immutable: version 1). */
export function toMessageRecord(row: CollaborationMessage): CollaborationMessageRecord {
  return {
    id: row.id,
    version: 1,
    collaborationId: row.collaborationId,
    clientId: row.clientId,
    sequence: row.sequence,
    sender: { party: row.senderParty, handle: row.senderHandle },
    body: row.body,
    created: row.created.toISOString(),
  };
}
