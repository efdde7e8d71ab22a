/**
 * The hand-off of committed outbox rows from their writer to the relay of
 * the same process (./pg-writer → ./relay): the rows skip the relay's claim.
 */
import type { OutboxRow } from './rows';

/**
 * How long a row handed to the relay by its writer is left to that relay, ms:
 * the writer inserts it due this much later, so no claim (of this replica or
 * another) takes it while the relay publishes it; once the lease ends a row
 * still pending (its process ended first, or its publish failed) is claimed
 * like any other.
 */
export const OUTBOX_HAND_OFF_LEASE_MS = 10_000;

/** The relay's side of a hand-off: what a writer asks before inserting and gives after its commit. */
export interface OutboxHandOff {
  /**
   * Whether rows committed now may be handed to the relay: it runs, its last
   * hand-off did not fail, and not too many wait. When false, the writer
   * inserts its rows due at once and wakes the relay.
   */
  takesHandOffs(): boolean;
  /**
   * Publishes rows a writer committed with the lease of
   * {@link OUTBOX_HAND_OFF_LEASE_MS}, in the order handed, without claiming
   * them (one round trip to mark them published instead of two).
   */
  handOff(rows: OutboxRow[]): void;
}
