/**
 * Pure rules of one conversation: the cached history (pages of
 * GET /api/collaborations/:id/messages, newest first) takes a message from a
 * push or a send's answer once, however often it arrives (its `id` and its
 * `clientId` are unique); the screen shows it oldest first, then the
 * messages still on their way, and "Seen" under the last own message the
 * other side has seen.
 */
import type {
  CollaborationMessageRecord,
  CollaborationParty,
  MessagesPage,
} from '@raly/contracts/collaborations';

/** The cached history: RTK Query's infinite data, one page per `before` (null: the newest page). */
export interface MessageHistory {
  pages: MessagesPage[];
  pageParams: (number | null)[];
}

const isSame = (a: CollaborationMessageRecord, b: CollaborationMessageRecord) =>
  a.id === b.id || a.clientId === b.clientId;

/**
 * Adds a message to the newest page of the history, in sequence order.
 * @returns `history` itself when it already holds the message or has no page, else a new history
 */
export function addMessage(
  history: MessageHistory,
  message: CollaborationMessageRecord,
): MessageHistory {
  const [newest, ...older] = history.pages;
  if (!newest) return history;
  if (history.pages.some((page) => page.items.some((item) => isSame(item, message))))
    return history;
  const items = [...newest.items, message].sort((a, b) => b.sequence - a.sequence);
  return { ...history, pages: [{ ...newest, items }, ...older] };
}

/** @returns every message of the history once, oldest first */
export function messagesOf(history: MessageHistory | undefined): CollaborationMessageRecord[] {
  if (!history) return [];
  const bySequence = new Map<number, CollaborationMessageRecord>();
  for (const page of history.pages)
    for (const item of page.items) bySequence.set(item.sequence, item);
  return [...bySequence.values()].sort((a, b) => a.sequence - b.sequence);
}

/** A message the author sent from this tab that the server has not stored (yet). */
export interface OutgoingMessage {
  clientId: string;
  body: string;
  /** Whether the author confirmed the contact-details notice for it. */
  confirmContactDetails: boolean;
  state: 'sending' | 'failed';
  /** Why it failed (the server's text), when it did. */
  problem?: string;
}

/** @returns the outgoing messages the history does not hold yet (a stored one shows once, from the history) */
export function stillOutgoing(
  outgoing: readonly OutgoingMessage[],
  stored: readonly CollaborationMessageRecord[],
): OutgoingMessage[] {
  const storedIds = new Set(stored.map((message) => message.clientId));
  return outgoing.filter((message) => !storedIds.has(message.clientId));
}

/**
 * @param side the reader's side
 * @param otherSeen the other side's `seenSequence`
 * @returns the sequence of the reader's last message the other side has seen, or null
 */
export function lastSeenOwnSequence(
  messages: readonly CollaborationMessageRecord[],
  side: CollaborationParty,
  otherSeen: number,
): number | null {
  let seen: number | null = null;
  for (const message of messages)
    if (message.sender.party === side && message.sequence <= otherSeen) seen = message.sequence;
  return seen;
}

/** @returns the other side of a collaboration */
export const otherSide = (side: CollaborationParty): CollaborationParty =>
  side === 'brand' ? 'creator' : 'brand';

/**
 * How a stored message names its sender to the reader (docs/product-spec.md
 * §13): the reader's own message "You"; a teammate's (the reader's side, sent
 * by another member) their handle; the other side's its public handle, and a
 * brand member's handle after it ("acme · sam").
 * @param ownHandle the reader's handle in their brand's team (null: none, or a creator)
 * @returns the name, and whether the message is the reader's own
 */
export function senderLabel(
  message: Pick<CollaborationMessageRecord, 'sender'>,
  side: CollaborationParty,
  ownHandle: string | null,
): { name: string; own: boolean } {
  const { party, handle, memberHandle } = message.sender;
  if (party !== side)
    return { name: memberHandle ? `${handle} · ${memberHandle}` : handle, own: false };
  if (memberHandle && memberHandle !== ownHandle) return { name: memberHandle, own: false };
  return { name: 'You', own: true };
}
