/**
 * Pure rules for the live collaborations (docs/api.md socket.io events
 * `collaboration.updated` and `collaboration.message`): the higher version
 * wins (lib/live-updates), a pushed message is counted on the record it
 * follows (`countedBy`), the list keeps the newest activity first, and each
 * user counts the unread messages of their own side only.
 */
import {
  countedBy,
  partyOf,
  type CollaborationMessageRecord,
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

/**
 * Counts a `collaboration.message` push (or a send's answer) on the list: the
 * message's collaboration is counted (`countedBy`) and moves to the top.
 * @returns `list` itself when nothing changed (the message is counted, or its collaboration is
 *   not in the list), else a new list, newest activity first; null when the collaboration misses
 *   a change before the message (read the list again)
 */
export function applyMessageToList(
  list: readonly CollaborationRecord[],
  message: CollaborationMessageRecord,
): readonly CollaborationRecord[] | null {
  const current = list.find((collaboration) => collaboration.id === message.collaborationId);
  if (!current) return list;
  const counted = countedBy(current, message);
  if (counted === null) return null;
  return counted === current ? list : applyCollaborationToList(list, counted);
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
