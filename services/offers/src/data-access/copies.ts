/**
 * How the public copies of other services' records (users, brands) are
 * stored: version-checked, so an older snapshot never replaces a newer one
 * whichever path brings it (an event, a fetch on a miss, a redelivery), and
 * without a lock or a transaction.
 */

/** The two writes of one copy, each a single statement reporting the rows it wrote. */
export interface CopyWrites {
  /** Updates the stored copy where its version is older than this one's. */
  updateOlder(): Promise<{ count: number }>;
  /** Inserts the copy where none is stored (a clash writes nothing). */
  insertAbsent(): Promise<{ count: number }>;
}

/**
 * Stores a copy unless the stored one is as new or newer: one statement when
 * a copy is already stored (most events), two for a first copy, three when
 * another writer inserted it between the first two.
 * @returns true when this copy was stored
 */
export async function storeIfNewer(writes: CopyWrites): Promise<boolean> {
  if ((await writes.updateOlder()).count > 0) return true;
  if ((await writes.insertAbsent()).count > 0) return true;
  // Rows are never deleted, so a stored copy exists now: this answer is final.
  return (await writes.updateOlder()).count > 0;
}
