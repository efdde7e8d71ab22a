/**
 * When each person was last seen online (docs/architecture.md "Presence"):
 * the newest heartbeat wins, so a redelivered or replayed older one changes
 * nothing.
 */
import type { PrismaClient } from '../generated/prisma/client';

export interface PresenceRepository {
  /** Records that `personId` had an open socket at `seenAt` (kept when newer than the stored instant). */
  seen(personId: string, seenAt: Date): Promise<void>;
  /** The last instant `personId` was seen, or null when never. */
  lastSeen(personId: string): Promise<Date | null>;
}

/** @param prisma this service's client */
export function presenceRepository(prisma: PrismaClient): PresenceRepository {
  return {
    async seen(personId, seenAt) {
      await prisma.$executeRaw`
        INSERT INTO presence (person_id, seen_at) VALUES (${personId}, ${seenAt})
        ON CONFLICT (person_id) DO UPDATE SET seen_at = EXCLUDED.seen_at
        WHERE presence.seen_at < EXCLUDED.seen_at`;
    },
    async lastSeen(personId) {
      const row = await prisma.presence.findUnique({ where: { personId } });
      return row?.seenAt ?? null;
    },
  };
}
