/**
 * Messages in Postgres (the only module that writes `collaboration_messages`).
 * A message is stored under its collaboration's row lock, with the
 * collaboration's counters and both events, in one transaction: its
 * sequence is the message count + 1, so sequences run 1, 2, 3… per
 * collaboration without a gap, and a retried send (the same client-made id)
 * finds the message it stored the first time. A send is two round trips
 * on the service's pg pool (the kit's plain-SQL event writer, no Prisma on
 * this path): BEGIN with one statement that locks the row, inserts the
 * message and counts it (./row-locks), then the events' insert with COMMIT.
 */
import type {
  CollaborationMessageRecord,
  CollaborationParty,
  CollaborationRecord,
  MessagesPage,
} from '@raly/contracts/collaborations';
import type { PgEventWriter, RaiseEvent } from '@raly/service-kit/outbox';
import type { PrismaClient } from '../generated/prisma/client';
import { isUuid } from './ids';
import { lockAndInsertCounted, messageByClientId, type LockedCollaboration } from './row-locks';
import { storedSenderHandle, toCollaborationRecord, toMessageRecord } from './snapshots';

export type { LockedCollaboration } from './row-locks';

/** A message as its sender wrote it; its side and handle are decided under the lock. */
export interface NewMessage {
  id: string;
  clientId: string;
  senderId: string;
  body: string;
  /**
   * The sender's handle in their brand's team, when known (stored after the brand's username
   * when they send for the brand; `rules.sender` refuses a brand member's send without it).
   */
  memberHandle?: string | null;
}

/**
 * Who sends: the side, its public handle (the creator's or the brand's
 * username) and, for a brand member who has one, their handle in the team.
 */
export interface MessageSender {
  party: CollaborationParty;
  handle: string;
  memberHandle?: string | null;
}

/** What a send decides on the collaboration as it is under the lock. */
export interface SendRules {
  /**
   * The side the sender is on and its public handle.
   * @throws to refuse the sender: nothing is stored (the transaction rolls back), the error propagates
   */
  sender(collaboration: LockedCollaboration): MessageSender;
  /**
   * Whether the collaboration takes a new message.
   * @throws to refuse it: nothing is stored, and the error propagates unless the
   *   client id was already used (then the stored message is answered)
   */
  check(collaboration: LockedCollaboration): void;
}

/** What a send stored, or found stored by an earlier send with the same client id. */
export interface SentMessage {
  message: CollaborationMessageRecord;
  /** False when the client id was already used: nothing new was stored. */
  created: boolean;
}

export interface MessageRepository {
  /**
   * Under the collaboration's row lock: asks `rules.sender` who sends; then,
   * when `rules.check` takes the message, inserts it with the next sequence
   * unless its client id was already used, counts it (message count, last
   * message time, the other side's unread, version) and records
   * `events.message(message)` (the message with the counted `collaborationVersion`)
   * and `events.collaboration(snapshot)`. The
   * statement writes before the rules are asked; what they refuse rolls back.
   * @returns what was stored (with its `collaborationVersion`), or the message stored earlier
   *   with the same client id (without one); null when no such collaboration exists
   * @throws what `rules` throw (nothing is stored)
   */
  sendWithEvents(
    collaborationId: string,
    message: NewMessage,
    rules: SendRules,
    events: {
      message: RaiseEvent<CollaborationMessageRecord>;
      collaboration: RaiseEvent<CollaborationRecord>;
    },
  ): Promise<SentMessage | null>;
  /**
   * A page of the history, newest first.
   * @param before only messages with a lower sequence (absent: from the newest)
   * @param limit at most this many
   */
  page(collaborationId: string, before: number | undefined, limit: number): Promise<MessagesPage>;
  /**
   * One message by its id.
   * @returns the message, or null for no such message or an id that is no uuid
   */
  findById(messageId: string): Promise<CollaborationMessageRecord | null>;
}

/**
 * The repository: reads over the service's Prisma client, sends over `events`,
 * the kit's plain-SQL event writer on the same pool.
 */
export function messageRepository(prisma: PrismaClient, events: PgEventWriter): MessageRepository {
  return {
    async sendWithEvents(collaborationId, message, rules, raise) {
      if (!isUuid(collaborationId)) return null;
      return events.transaction(async (tx, record) => {
        // One statement (./row-locks): the lock, the insert (ON CONFLICT DO NOTHING: a used
        // client id inserts nothing) and the counters. What it wrote stands only if the rules
        // below take the send; an error rolls it all back.
        const done = await lockAndInsertCounted(tx, {
          ...message,
          collaborationId,
          created: new Date(),
        });
        if (!done) return null;
        const { locked: current } = done;
        const sender = rules.sender(current);
        const storedEarlier = async () => {
          const row = await messageByClientId(tx, collaborationId, message.clientId);
          return row && { message: toMessageRecord(row), created: false };
        };
        try {
          rules.check(current);
        } catch (error) {
          // Inserted now: the client id was free, so no earlier message answers for it.
          const stored = done.message ? null : await storedEarlier();
          if (stored) return stored;
          throw error;
        }
        if (!done.message) {
          const stored = await storedEarlier();
          // Under the lock only the client id can clash: the count is the last sequence.
          if (!stored)
            throw new Error(
              `message sequence ${current.messageCount + 1} taken in ${collaborationId}`,
            );
          return stored;
        }
        if (
          done.message.senderParty !== sender.party ||
          done.message.senderHandle !== storedSenderHandle(sender)
        )
          throw new Error(`message ${message.id}: its sender was stored apart from the rules`);
        const counted = toCollaborationRecord(done.counted!);
        const sent = { ...toMessageRecord(done.message), collaborationVersion: counted.version };
        record(raise.message(sent), raise.collaboration(counted));
        return { message: sent, created: true };
      });
    },
    async page(collaborationId, before, limit) {
      const rows = await prisma.collaborationMessage.findMany({
        where: { collaborationId, ...(before !== undefined && { sequence: { lt: before } }) },
        orderBy: { sequence: 'desc' },
        take: limit,
      });
      // Sequences run from 1 without a gap: older messages exist while the oldest here is above 1.
      const oldest = rows.at(-1)?.sequence;
      return { items: rows.map(toMessageRecord), nextBefore: oldest && oldest > 1 ? oldest : null };
    },
    async findById(messageId) {
      if (!isUuid(messageId)) return null;
      const row = await prisma.collaborationMessage.findUnique({ where: { id: messageId } });
      return row && toMessageRecord(row);
    },
  };
}
