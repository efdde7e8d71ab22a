/**
 * The row lock a message is stored under, in raw SQL because Prisma has no
 * `FOR UPDATE`: the collaboration's row is locked and the columns a send
 * needs are read in the same statement. After waiting for another
 * transaction's lock, Postgres answers the row as that transaction left it
 * (READ COMMITTED re-reads the locked row), so the message count read here
 * is the one the next sequence follows.
 */
import type { CollaborationStatus } from '../generated/prisma/client';
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
