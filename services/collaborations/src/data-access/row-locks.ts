/**
 * The row lock a message is stored under, the message's insert and its
 * collaboration's counters, in plain SQL on the kit's pg event writer
 * (@raly/service-kit/outbox `createPgEventWriter`): one statement, sent with
 * BEGIN, locks the collaboration's row, reads the columns a send needs,
 * inserts the message and counts it. After waiting for another transaction's
 * lock, Postgres answers the row as that transaction left it (READ COMMITTED
 * re-reads the locked row, and the update re-reads it too), so the message
 * count read here is the one the next sequence follows.
 */
import type { PgTransaction } from '@raly/service-kit/outbox';
import { escapeLiteral } from 'pg';
import type {
  Collaboration,
  CollaborationMessage,
  CollaborationParty,
  CollaborationStatus,
} from '../generated/prisma/client';
import { isUuid } from './ids';
import { memberHandleSuffix } from './snapshots';

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

/** A message to store: its sender's side, handle and sequence are decided on the locked row. */
export interface MessageToStore {
  id: string;
  collaborationId: string;
  clientId: string;
  senderId: string;
  body: string;
  created: Date;
  /**
   * The sender's handle in their brand's team, stored after the brand's username when they
   * send for the brand (null or empty: none; a creator's message never carries one).
   */
  memberHandle?: string | null;
}

/** What {@link lockAndInsertCounted} found and did in its one statement. */
export interface LockedInsert {
  /** The row as it was under the lock, before the message. */
  locked: LockedCollaboration;
  /** The message's row as stored; null when nothing was inserted. */
  message: CollaborationMessage | null;
  /** The collaboration as the counters' update left it; null when nothing was inserted. */
  counted: Collaboration | null;
}

/** Columns of the counted collaboration, as {@link LockedInsert.counted} names them. */
const countedColumns = `c.version, c.application_id::text AS "applicationId", c.offer_id::text AS "offerId",
           c.offer_title AS "offerTitle", c.brand, c.creator_profile_img AS "creatorProfileImg",
           c.terms, c.last_message_at AS "lastMessageAt", c.activity_at AS "activityAt",
           c.unread_brand AS "unreadBrand", c.unread_creator AS "unreadCreator",
           c.seen_sequence_brand AS "seenSequenceBrand", c.seen_sequence_creator AS "seenSequenceCreator",
           c.deliverables, c.payment, c.cancellation, c.timeline, c.reviews,
           c.review_due_at AS "reviewDueAt", c.payment_unsettled_since AS "paymentUnsettledSince",
           c.created, c.updated, c.status::text AS "countedStatus",
           c.message_count AS "countedMessageCount"`;

/**
 * In one statement, sent with BEGIN (a simple query: every value is a checked uuid or an
 * escaped literal): locks the collaboration's row for the rest of `tx` and reads what a send
 * needs; unless it is cancelled, inserts the message with the next sequence (the count read
 * under the lock + 1), its side (the creator when the sender is the collaboration's creator,
 * else the brand) and its handle, ON CONFLICT DO NOTHING (a used client id inserts nothing:
 * the unique index sees every committed row); and only when it inserted, counts it on the
 * collaboration (message count, last message and activity time, the other side's unread,
 * version, updated). The caller decides on `locked` whether the send stands and rolls back
 * otherwise. One round trip where a lock and then the insert took two.
 * @param message the message (`collaborationId` and `clientId` uuids, checked by the caller)
 * @returns null when no such collaboration exists
 */
export async function lockAndInsertCounted(
  tx: PgTransaction,
  message: MessageToStore,
): Promise<LockedInsert | null> {
  if (!isUuid(message.collaborationId) || !isUuid(message.clientId) || !isUuid(message.id))
    throw new Error('lockAndInsertCounted: an id is not a uuid');
  const id = `'${message.collaborationId}'::uuid`;
  const sender = escapeLiteral(message.senderId);
  const memberSuffix = escapeLiteral(memberHandleSuffix(message.memberHandle));
  const created = `${escapeLiteral(message.created.toISOString())}::timestamptz`;
  const { rows } = await tx.query<
    LockedCollaboration & {
      senderParty: CollaborationParty | null;
      senderHandle: string | null;
      sequence: number | null;
    } & Partial<Record<string, unknown>>
  >(`
    WITH locked AS (
      SELECT id, creator_id, brand_id, status, message_count, creator_username,
             brand->>'username' AS brand_username,
             CASE WHEN creator_id = ${sender} THEN 'creator' ELSE 'brand' END AS party
        FROM collaborations WHERE id = ${id} FOR UPDATE),
    inserted AS (
      INSERT INTO collaboration_messages
             (id, collaboration_id, client_id, sequence, sender_party, sender_id, sender_handle, body, created)
      SELECT '${message.id}'::uuid, locked.id, '${message.clientId}'::uuid, locked.message_count + 1,
             locked.party::"CollaborationParty", ${sender},
             CASE WHEN locked.party = 'creator' THEN locked.creator_username
                  ELSE locked.brand_username || ${memberSuffix} END,
             ${escapeLiteral(message.body)}, ${created}
        FROM locked WHERE locked.status <> 'cancelled'
      ON CONFLICT DO NOTHING
      RETURNING sequence, sender_party, sender_handle),
    counted AS (
      UPDATE collaborations
         SET message_count = message_count + 1, last_message_at = ${created}, activity_at = ${created},
             unread_brand = unread_brand + CASE WHEN (SELECT sender_party FROM inserted) = 'creator' THEN 1 ELSE 0 END,
             unread_creator = unread_creator + CASE WHEN (SELECT sender_party FROM inserted) = 'brand' THEN 1 ELSE 0 END,
             version = version + 1, updated = ${created}
       WHERE id = ${id} AND EXISTS (SELECT FROM inserted)
      RETURNING *)
    SELECT l.id::text, l.creator_id AS "creatorId", l.brand_id::text AS "brandId",
           l.status::text AS status, l.message_count AS "messageCount",
           l.creator_username AS "creatorUsername", l.brand_username AS "brandUsername",
           i.sequence, i.sender_party::text AS "senderParty",
           i.sender_handle AS "senderHandle", ${countedColumns}
      FROM locked l LEFT JOIN inserted i ON true LEFT JOIN counted c ON true`);
  const row = rows[0];
  if (!row) return null;
  const locked: LockedCollaboration = {
    id: row.id,
    creatorId: row.creatorId,
    brandId: row.brandId,
    status: row.status,
    messageCount: row.messageCount,
    creatorUsername: row.creatorUsername,
    brandUsername: row.brandUsername,
  };
  if (row.sequence === null) return { locked, message: null, counted: null };
  const stored: CollaborationMessage = {
    id: message.id,
    collaborationId: message.collaborationId,
    clientId: message.clientId,
    sequence: row.sequence!,
    senderParty: row.senderParty!,
    senderId: message.senderId,
    senderHandle: row.senderHandle!,
    body: message.body,
    created: message.created,
  };
  const counted = {
    ...(row as Record<string, unknown>),
    id: row.id,
    brandId: row.brandId,
    creatorId: row.creatorId,
    creatorUsername: row.creatorUsername,
    status: row.countedStatus,
    messageCount: row.countedMessageCount,
  } as unknown as Collaboration;
  return { locked, message: stored, counted };
}

/**
 * The message a collaboration stored under a client id (a retried send), read in `tx`.
 * @returns the row, or null when the client id was not used
 */
export async function messageByClientId(
  tx: PgTransaction,
  collaborationId: string,
  clientId: string,
): Promise<CollaborationMessage | null> {
  const { rows } = await tx.query<CollaborationMessage>({
    name: 'collaborations.message-by-client-id',
    text: `SELECT id::text, collaboration_id::text AS "collaborationId", client_id::text AS "clientId",
                  sequence, sender_party::text AS "senderParty", sender_id AS "senderId",
                  sender_handle AS "senderHandle", body, created
             FROM collaboration_messages WHERE collaboration_id = $1::uuid AND client_id = $2::uuid`,
    values: [collaborationId, clientId],
  });
  return rows[0] ?? null;
}
