/**
 * Pure rules for the live collaborations (docs/api.md socket.io events
 * `collaboration.updated`): the higher version wins (lib/live-updates), the
 * list keeps the newest activity first, and each user counts the unread
 * messages of their own side only.
 */
import {
  partyOf,
  type CollaborationParty,
  type CollaborationRecord,
} from '@raly/contracts/collaborations';
import type { UserRecord } from '@raly/contracts/records';
import { upsertNewer } from '@/lib/offer-live';

/** When a collaboration last saw activity (its last message, else its opening), epoch ms. */
const lastActivityOf = (collaboration: CollaborationRecord) =>
  Date.parse(collaboration.lastMessageAt ?? collaboration.created);

/**
 * Applies a `collaboration.updated` push (or a command's answer) to the list.
 * @returns `list` itself when the record is not newer, else a new list, newest activity first
 */
export function applyCollaborationToList(
  list: readonly CollaborationRecord[],
  collaboration: CollaborationRecord,
): CollaborationRecord[] {
  const next = upsertNewer(list, collaboration);
  if (next === list) return next;
  return [...next].sort((a, b) => lastActivityOf(b) - lastActivityOf(a));
}

/** @returns the side `user` is on (their brand's id when a brand user), or null */
export function sideOf(
  collaboration: Pick<CollaborationRecord, 'creatorId' | 'brandId'>,
  user: Pick<UserRecord, 'id' | 'brand'>,
): CollaborationParty | null {
  return partyOf(collaboration, { id: user.id, brandId: user.brand?.id ?? null });
}

/** @returns the messages of the other side that `user` has not seen, over every collaboration */
export function totalUnread(
  list: readonly CollaborationRecord[],
  user: Pick<UserRecord, 'id' | 'brand'>,
): number {
  return list.reduce((sum, collaboration) => {
    const side = sideOf(collaboration, user);
    return side ? sum + collaboration.unread[side] : sum;
  }, 0);
}
