/**
 * The row lock a message is stored under, in raw SQL because Prisma has no
 * `FOR UPDATE`: the collaboration's row is locked and the columns a send
 * needs are read in the same statement; and the message's insert with its
 * collaboration's counters, one statement instead of two. After waiting for another
 * transaction's lock, Postgres answers the row as that transaction left it
 * (READ COMMITTED re-reads the locked row), so the message count read here
 * is the one the next sequence follows.
 */
import {
  Prisma,
  type Collaboration,
  type CollaborationMessage,
  type CollaborationParty,
  type CollaborationStatus,
} from '../generated/prisma/client';
import type { Transaction } from './database';

/** What a send reads of its collaboration under the lock. */
export interface LockedCollaboration {
  id: string;
  creatorId: string;
  brandId: string;
  status: CollaborationStatus;
  messageCount: number;
  /** The sides' public handles, frozen at opening: the creator's and the brand's usernames. */
  creatorUsername: string;
  brandUsername: string;
}

/**
 * Locks a collaboration's row for the rest of `tx` and reads what a send needs.
 * @param id a uuid (checked by the caller)
 * @returns the row as it is under the lock, or null when no such collaboration exists
 */
export async function lockForMessage(
  tx: Transaction,
  id: string,
): Promise<LockedCollaboration | null> {
  const rows = await tx.$queryRaw<LockedCollaboration[]>`
    SELECT id::text, creator_id AS "creatorId", brand_id::text AS "brandId",
           status::text AS status, message_count AS "messageCount",
           creator_username AS "creatorUsername", brand->>'username' AS "brandUsername"
      FROM collaborations WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0] ?? null;
}

/** The unread column of each side (the side that did not send the message). */
const unreadColumn = {
  brand: Prisma.raw('unread_brand'),
  creator: Prisma.raw('unread_creator'),
} as const satisfies Record<CollaborationParty, Prisma.Sql>;

/**
 * Under the lock of {@link lockForMessage}: inserts the message unless its
 * client id (or id, or sequence) is taken, and only then counts it on its
 * collaboration (message count, last message and activity time, `unreadOf`'s
 * unread, version, updated), in one statement.
 * @param message the row to insert (`created` is also the counters' time)
 * @param unreadOf the side that did not send it
 * @returns the collaboration as the update left it, or null when nothing was inserted
 */
export async function insertCounted(
  tx: Transaction,
  message: CollaborationMessage,
  unreadOf: CollaborationParty,
): Promise<Collaboration | null> {
  const unread = unreadColumn[unreadOf];
  const now = message.created;
  const rows = await tx.$queryRaw<Collaboration[]>`
    WITH inserted AS (
      INSERT INTO collaboration_messages
             (id, collaboration_id, client_id, sequence, sender_party, sender_id, sender_handle, body, created)
      VALUES (${message.id}::uuid, ${message.collaborationId}::uuid, ${message.clientId}::uuid,
              ${message.sequence}, ${message.senderParty}::"CollaborationParty", ${message.senderId},
              ${message.senderHandle}, ${message.body}, ${now})
      ON CONFLICT DO NOTHING
      RETURNING 1)
    UPDATE collaborations
       SET message_count = message_count + 1, last_message_at = ${now}, activity_at = ${now},
           ${unread} = ${unread} + 1, version = version + 1, updated = ${now}
     WHERE id = ${message.collaborationId}::uuid AND EXISTS (SELECT FROM inserted)
    RETURNING id::text, version, application_id::text AS "applicationId", offer_id::text AS "offerId",
              brand_id::text AS "brandId", creator_id AS "creatorId", offer_title AS "offerTitle",
              brand, creator_username AS "creatorUsername", creator_profile_img AS "creatorProfileImg",
              terms, status::text AS status, message_count AS "messageCount",
              last_message_at AS "lastMessageAt", activity_at AS "activityAt",
              unread_brand AS "unreadBrand", unread_creator AS "unreadCreator",
              seen_sequence_brand AS "seenSequenceBrand", seen_sequence_creator AS "seenSequenceCreator",
              deliverables, payment, cancellation, timeline, reviews,
              review_due_at AS "reviewDueAt", payment_unsettled_since AS "paymentUnsettledSince",
              created, updated`;
  return rows[0] ?? null;
}
