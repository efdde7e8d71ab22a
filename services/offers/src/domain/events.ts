/**
 * The integration events the offers service raises: the whole OfferRecord
 * on `offers.offer.v1` and the whole ApplicationRecord on
 * `offers.application.v1` (key = the record's id), each with its version.
 * A use case hands the event it raises to the repository, which builds it
 * from the snapshot its write produced and inserts the outbox row in the
 * same transaction.
 */
import { eventTypes, topics } from '@raly/contracts/events';
import {
  applicationRecordSchema,
  offerRecordSchema,
  type ApplicationRecord,
  type OfferRecord,
} from '@raly/contracts/offers';
import { snapshotEventOf } from '@raly/service-kit/outbox';

export const eventSource = 'raly/offers';

const offerEvent = snapshotEventOf<OfferRecord>({
  topic: topics.offersOffer,
  source: eventSource,
  schema: offerRecordSchema,
});

const applicationEvent = snapshotEventOf<ApplicationRecord>({
  topic: topics.offersApplication,
  source: eventSource,
  schema: applicationRecordSchema,
});

/** `offers.offer.created`: a new offer's snapshot (a draft, or open at once). */
export const offerCreatedEvent = offerEvent(eventTypes.offerCreated);

/** `offers.offer.updated`: a changed offer's snapshot (edited, opened, closed, a place filled). */
export const offerUpdatedEvent = offerEvent(eventTypes.offerUpdated);

/** `offers.application.created`: a new application's snapshot. */
export const applicationCreatedEvent = applicationEvent(eventTypes.applicationCreated);

/** `offers.application.updated`: an application accepted, declined or withdrawn. */
export const applicationUpdatedEvent = applicationEvent(eventTypes.applicationUpdated);
