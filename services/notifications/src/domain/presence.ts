/**
 * Presence (docs/architecture.md "Presence"): a person with no open Raly
 * socket for `awayAfterMs` counts as away. The BFF's replicas publish a
 * heartbeat per connected user on `live.presence.v1`; a crashed replica
 * stops publishing, so its users turn away after the window.
 */
import type { Envelope, PresenceSeen } from '@raly/contracts/events';
import type { NotificationsDependencies } from './dependencies';

/** Handles `live.presence.seen`: keeps the newest instant the person was seen. */
export async function notePresence(
  dependencies: NotificationsDependencies,
  event: Envelope<PresenceSeen>,
): Promise<void> {
  await dependencies.presence.seen(event.data.userId, new Date(event.data.seenAt));
}

/**
 * @param lastSeen the person's last heartbeat, null when never seen
 * @param now the clock's instant
 * @returns true when no heartbeat came within `awayAfterMs` (never seen counts as away)
 */
export function isAway(lastSeen: Date | null, now: Date, awayAfterMs: number): boolean {
  return lastSeen === null || now.getTime() - lastSeen.getTime() >= awayAfterMs;
}
