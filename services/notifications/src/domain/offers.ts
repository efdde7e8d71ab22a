/**
 * Notifications of offers and applications (docs/product-spec.md
 * "Notifications"): an offer that opens is announced to the creators of its
 * interests who want offers; an application received or withdrawn tells
 * the members of the offer's brand, one accepted or declined tells its
 * applicant. Each fact is told once per person, whatever the redeliveries.
 */
import type { Envelope } from '@raly/contracts/events';
import { topics } from '@raly/contracts/events';
import type { NotificationKind } from '@raly/contracts/notifications';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import type { NotificationDraft } from '../data-access/inbox-repository';
import type { NotificationsDependencies } from './dependencies';
import { inboxUpdatedEvent } from './events';
import { isRecent } from './recent';

/**
 * Handles `offers.offer.created|updated`: the first snapshot of an offer
 * that is open (and opened recently) starts its announcement, run to its
 * end in bounded batches; later snapshots find it started and resume or skip it.
 */
export async function announceOpenedOffer(
  dependencies: NotificationsDependencies,
  event: Envelope<OfferRecord>,
): Promise<void> {
  const offer = event.data;
  if (offer.status !== 'open' || !isRecent(dependencies, offer.openedAt ?? event.time)) return;
  const draftOf = (personId: string): NotificationDraft => ({
    recipientId: personId,
    kind: 'offer_matched',
    source: {
      fromTopic: topics.offersOffer,
      aggregateId: offer.id,
      version: offer.version,
      occurrence: 'opened',
    },
    offerId: offer.id,
    applicationId: null,
    collaborationId: null,
    title: offer.title,
    counterpart: offer.brand.company,
  });
  let total = 0;
  for (;;) {
    const { added, done } = await dependencies.announcements.nextBatch(
      offer,
      dependencies.announceBatch,
      draftOf,
      inboxUpdatedEvent,
    );
    total += added;
    if (done) break;
  }
  if (total > 0)
    dependencies.logger.info({ offerId: offer.id, creators: total }, 'offer announced');
}

/** Who is told of an application's status, and as what. */
const applicationFacts: Partial<
  Record<ApplicationRecord['status'], { kind: NotificationKind; to: 'brand' | 'creator' }>
> = {
  pending: { kind: 'application_received', to: 'brand' },
  accepted: { kind: 'application_accepted', to: 'creator' },
  declined: { kind: 'application_declined', to: 'creator' },
  withdrawn: { kind: 'application_withdrawn', to: 'brand' },
};

/**
 * Handles `offers.application.created|updated`: its status tells the other
 * side (received, withdrawn: the brand's members named by the creator's
 * username; accepted, declined: the applicant named by the brand's name).
 */
export async function notifyOfApplication(
  dependencies: NotificationsDependencies,
  event: Envelope<ApplicationRecord>,
): Promise<void> {
  const application = event.data;
  const fact = applicationFacts[application.status];
  if (!fact || !isRecent(dependencies, application.decidedAt ?? application.created)) return;
  const recipients =
    fact.to === 'brand'
      ? await dependencies.copies.brandMembers(application.brandId)
      : [application.creatorId];
  const drafts = recipients.map((recipientId): NotificationDraft => ({
    recipientId,
    kind: fact.kind,
    source: {
      fromTopic: topics.offersApplication,
      aggregateId: application.id,
      version: application.version,
      occurrence: application.status,
    },
    offerId: application.offerId,
    applicationId: application.id,
    collaborationId: null,
    title: application.offer.title,
    counterpart:
      fact.to === 'brand' ? application.creator.username : application.offer.brand.company,
  }));
  await dependencies.inboxes.deliver(drafts, inboxUpdatedEvent);
}
