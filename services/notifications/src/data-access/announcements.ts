/**
 * Announcing an opened offer to the creators of its interests who want
 * offers: in bounded batches, one transaction each, ordered by person id.
 * Each batch adds its items and moves the announcement's cursor in the same
 * transaction, so a crash or a redelivery resumes after the last batch done
 * and a finished announcement is never run again.
 */
import type { Interest } from '@raly/contracts/constants';
import type { InboxRecord } from '@raly/contracts/notifications';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { NotificationsEventWriter } from './database';
import type { InboxRepository, NotificationDraft } from './inbox-repository';

export interface Announcements {
  /**
   * Runs the next batch of an offer's announcement (starting it when new).
   * @param draftOf the item of one creator
   * @returns the items added and whether the announcement is done
   */
  nextBatch(
    offer: { id: string; interests: readonly Interest[] },
    batchSize: number,
    draftOf: (personId: string) => NotificationDraft,
    raise: RaiseEvent<InboxRecord>,
  ): Promise<{ added: number; done: boolean }>;
}

/** @param inboxes adds each batch's items in the batch's transaction */
export function announcementsRepository(
  events: NotificationsEventWriter,
  inboxes: Pick<InboxRepository, 'deliverIn'>,
): Announcements {
  return {
    nextBatch: (offer, batchSize, draftOf, raise) =>
      events.transaction(async (tx, record) => {
        await tx.$executeRaw`
          INSERT INTO offer_announcements (offer_id) VALUES (${offer.id}) ON CONFLICT DO NOTHING`;
        const [state] = await tx.$queryRaw<{ last_person_id: string; done: boolean }[]>`
          SELECT last_person_id, done FROM offer_announcements
          WHERE offer_id = ${offer.id} FOR UPDATE`;
        if (!state || state.done) return { added: 0, done: true };
        const creators = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM people
          WHERE wants_offers AND interests && ${[...offer.interests]}::text[]
            AND id > ${state.last_person_id}
          ORDER BY id LIMIT ${batchSize}`;
        const added = await inboxes.deliverIn(
          tx,
          record,
          creators.map((creator) => draftOf(creator.id)),
          raise,
        );
        const done = creators.length < batchSize;
        await tx.offerAnnouncement.update({
          where: { offerId: offer.id },
          data: { lastPersonId: creators.at(-1)?.id ?? state.last_person_id, done },
        });
        return { added, done };
      }),
  };
}
