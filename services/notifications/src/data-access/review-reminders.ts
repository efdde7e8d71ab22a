/**
 * Reminders of submissions waiting for the brand's review, one per
 * deliverable and round: kept in step with each newer collaboration
 * snapshot, and claimed by the sweep (`FOR UPDATE SKIP LOCKED`, so any
 * number of instances share the work) once their automatic approval comes
 * near. A claimed reminder is marked sent in the transaction that adds its
 * items, so it is sent once.
 */
import type { InboxRecord } from '@raly/contracts/notifications';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { PrismaClient } from '../generated/prisma/client';
import type { NotificationsEventWriter } from './database';
import type { InboxRepository, NotificationDraft } from './inbox-repository';

/** A submission waiting for review: its deliverable, round and automatic approval time. */
export interface WaitingReview {
  deliverableId: string;
  round: number;
  dueAt: Date;
}

/** A claimed reminder with what its items show. */
export interface DueReminder {
  collaborationId: string;
  deliverableId: string;
  round: number;
  dueAt: Date;
  brandId: string;
  offerId: string;
  offerTitle: string;
  creatorUsername: string;
}

export interface ReviewReminders {
  /** Keeps the collaboration's unsent reminders to exactly `waiting` (sent ones stay sent). */
  sync(collaborationId: string, waiting: WaitingReview[]): Promise<void>;
  /**
   * Claims at most `limit` unsent reminders due before `until`, adds the
   * items `draftsOf` makes for each (with the brand's members) and marks
   * them sent, in one transaction.
   * @returns how many reminders were claimed (0: none waits)
   */
  sendDue(
    until: Date,
    limit: number,
    draftsOf: (reminder: DueReminder, members: string[]) => NotificationDraft[],
    raise: RaiseEvent<InboxRecord>,
  ): Promise<number>;
}

interface ClaimedRow {
  collaboration_id: string;
  deliverable_id: string;
  round: number;
  due_at: Date;
  brand_id: string;
  offer_id: string;
  offer_title: string;
  creator_username: string;
}

/** @param inboxes adds the reminders' items in the claiming transaction */
export function reviewRemindersRepository(
  prisma: PrismaClient,
  events: NotificationsEventWriter,
  inboxes: Pick<InboxRepository, 'deliverIn'>,
): ReviewReminders {
  return {
    async sync(collaborationId, waiting) {
      const keys = waiting.map((review) => `${review.deliverableId}:${review.round}`);
      await prisma.$transaction([
        prisma.$executeRaw`
          DELETE FROM review_reminders
          WHERE collaboration_id = ${collaborationId} AND sent_at IS NULL
            AND NOT (deliverable_id || ':' || round = ANY(${keys}::text[]))`,
        prisma.reviewReminder.createMany({
          data: waiting.map((review) => ({ collaborationId, ...review })),
          skipDuplicates: true,
        }),
      ]);
    },
    sendDue: (until, limit, draftsOf, raise) =>
      events.transaction(async (tx, record) => {
        const claimed = await tx.$queryRaw<ClaimedRow[]>`
          SELECT r.collaboration_id, r.deliverable_id, r.round, r.due_at,
                 c.brand_id, c.offer_id, c.offer_title, c.creator_username
          FROM review_reminders r JOIN collaborations c ON c.id = r.collaboration_id
          WHERE r.sent_at IS NULL AND r.due_at <= ${until}
          ORDER BY r.due_at LIMIT ${limit}
          FOR UPDATE OF r SKIP LOCKED`;
        if (claimed.length === 0) return 0;
        const brands = [...new Set(claimed.map((row) => row.brand_id))];
        const people = await tx.person.findMany({
          where: { brandId: { in: brands } },
          select: { id: true, brandId: true },
          orderBy: { id: 'asc' },
        });
        const drafts = claimed.flatMap((row) =>
          draftsOf(
            {
              collaborationId: row.collaboration_id,
              deliverableId: row.deliverable_id,
              round: row.round,
              dueAt: row.due_at,
              brandId: row.brand_id,
              offerId: row.offer_id,
              offerTitle: row.offer_title,
              creatorUsername: row.creator_username,
            },
            people.filter((person) => person.brandId === row.brand_id).map((person) => person.id),
          ),
        );
        await inboxes.deliverIn(tx, record, drafts, raise);
        for (const row of claimed)
          await tx.reviewReminder.update({
            where: {
              collaborationId_deliverableId_round: {
                collaborationId: row.collaboration_id,
                deliverableId: row.deliverable_id,
                round: row.round,
              },
            },
            data: { sentAt: new Date() },
          });
        return claimed.length;
      }),
  };
}
