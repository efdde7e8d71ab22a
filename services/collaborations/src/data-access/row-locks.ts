/**
 * The row lock a message is stored under and the message's insert with its
 * collaboration's counters, in plain SQL on the kit's pg event writer
 * (@raly/service-kit/outbox `createPgEventWriter`): the collaboration's row is
 * locked and the columns a send needs are read in the same statement (sent
 * with BEGIN: the id is written into it, a uuid checked by the caller); and
 * the message's insert with its collaboration's counters, one prepared
 * statement instead of two. After waiting for another transaction's lock,
 * Postgres answers the row as that transaction left it (READ COMMITTED
 * re-reads the locked row), so the message count read here is the one the
 * next sequence follows.
 */
import type { PgTransaction } from '@raly/service-kit/outbox';
import type {
  Collaboration,
  CollaborationMessage,
  CollaborationParty,
  CollaborationStatus,
} from '../generated/prisma/client';
import { isUuid } from './ids';

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
  tx: PgTransaction,
  id: string,
): Promise<LockedCollaboration | null> {
  // Written into the text (a simple query, so BEGIN travels with it): only a checked uuid.
  if (!isUuid(id)) throw new Error('lockForMessage: the id is not a uuid');
  const { rows } = await tx.query<LockedCollaboration>(`
    SELECT id::text, creator_id AS "creatorId", brand_id::text AS "brandId",
           status::text AS status, message_count AS "messageCount",
           creator_username AS "creatorUsername", brand->>'username' AS "brandUsername"
      FROM collaborations WHERE id = '${id}'::uuid FOR UPDATE`);
  return rows[0] ?? null;
}

/**
 * The statement of {@link insertCounted} for the side whose unread it
 * counts, prepared once per connection under its name. Parameters: id,
 * collaboration id, client id, sequence, sender party, sender id, sender
 * handle, body, created (also the counters' time).
 */
const insertCountedSql = (unread: 'unread_brand' | 'unread_creator') => `
    WITH inserted AS (
      INSERT INTO collaboration_messages
             (id, collaboration_id, client_id, sequence, sender_party, sender_id, sender_handle, body, created)
      VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::"CollaborationParty", $6, $7, $8, $9)
      ON CONFLICT DO NOTHING
      RETURNING 1)
    UPDATE collaborations
       SET message_count = message_count + 1, last_message_at = $9, activity_at = $9,
           ${unread} = ${unread} + 1, version = version + 1, updated = $9
     WHERE id = $2::uuid AND EXISTS (SELECT FROM inserted)
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

/** The insert-and-count statement of each side (the side that did not send the message). */
const insertCountedOf = {
  brand: { name: 'collaborations.insert-counted.brand', text: insertCountedSql('unread_brand') },
  creator: {
    name: 'collaborations.insert-counted.creator',
    text: insertCountedSql('unread_creator'),
  },
} as const satisfies Record<CollaborationParty, { name: string; text: string }>;

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
  tx: PgTransaction,
  message: CollaborationMessage,
  unreadOf: CollaborationParty,
): Promise<Collaboration | null> {
  const { rows } = await tx.query<Collaboration>({
    ...insertCountedOf[unreadOf],
    values: [
      message.id,
      message.collaborationId,
      message.clientId,
      message.sequence,
      message.senderParty,
      message.senderId,
      message.senderHandle,
      message.body,
      message.created,
    ],
  });
  return rows[0] ?? null;
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
