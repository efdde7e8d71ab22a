/**
 * Messages in Postgres (the only module that writes `collaboration_messages`).
 * A message is stored under its collaboration's row lock, with the
 * collaboration's counters and both events, in one transaction: its
 * sequence is the message count + 1, so sequences run 1, 2, 3… per
 * collaboration without a gap, and a retried send (the same client-made id)
 * finds the message it stored the first time.
 */
import type {
  CollaborationMessageRecord,
  CollaborationParty,
  CollaborationRecord,
  MessagesPage,
} from '@raly/contracts/collaborations';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { PrismaClient } from '../generated/prisma/client';
import { lockCollaboration } from './collaboration-repository';
import type { CollaborationsEventWriter } from './database';
import { isUuid } from './ids';
import { otherParty, partyColumns, toCollaborationRecord, toMessageRecord } from './snapshots';

export interface NewMessage {
  id: string;
  clientId: string;
  senderParty: CollaborationParty;
  senderId: string;
  senderHandle: string;
  body: string;
}

/** What a send stored, or found stored by an earlier send with the same client id. */
export interface SentMessage {
  message: CollaborationMessageRecord;
  /** False when the client id was already used: nothing new was stored. */
  created: boolean;
}

export interface MessageRepository {
  /** @returns the collaboration's message with this client-made id, or null */
  findByClientId(
    collaborationId: string,
    clientId: string,
  ): Promise<CollaborationMessageRecord | null>;
  /**
   * Under the collaboration's row lock: returns the message stored with the
   * same client id if any; else asks `check` whether the collaboration takes
   * the message, inserts it with the next sequence, counts it (message
   * count, last message time, the other side's unread, version) and records
   * `events.message(message)` and `events.collaboration(snapshot)`.
   * @returns what was stored or found, or null when no such collaboration exists
   * @throws what `check` throws (nothing is stored)
   */
  sendWithEvents(
    collaborationId: string,
    message: NewMessage,
    check: (collaboration: CollaborationRecord) => void,
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
}

/** The repository over the service's Prisma client; `events` for every write. */
export function messageRepository(
  prisma: PrismaClient,
  events: CollaborationsEventWriter,
): MessageRepository {
  return {
    async findByClientId(collaborationId, clientId) {
      if (!isUuid(collaborationId) || !isUuid(clientId)) return null;
      const row = await prisma.collaborationMessage.findUnique({
        where: { collaborationId_clientId: { collaborationId, clientId } },
      });
      return row && toMessageRecord(row);
    },
    async sendWithEvents(collaborationId, message, check, raise) {
      if (!isUuid(collaborationId)) return null;
      return events.transaction(async (tx, record) => {
        const current = await lockCollaboration(tx, collaborationId);
        if (!current) return null;
        const stored = await tx.collaborationMessage.findUnique({
          where: { collaborationId_clientId: { collaborationId, clientId: message.clientId } },
        });
        if (stored) return { message: toMessageRecord(stored), created: false };
        check(toCollaborationRecord(current));
        const now = new Date();
        const row = await tx.collaborationMessage.create({
          data: { ...message, collaborationId, sequence: current.messageCount + 1, created: now },
        });
        const counted = await tx.collaboration.update({
          where: { id: collaborationId },
          data: {
            messageCount: { increment: 1 },
            lastMessageAt: now,
            activityAt: now,
            [partyColumns[otherParty(message.senderParty)].unread]: { increment: 1 },
            version: { increment: 1 },
            updated: now,
          },
        });
        const sent = toMessageRecord(row);
        await record(raise.message(sent), raise.collaboration(toCollaborationRecord(counted)));
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
  };
}
