/**
 * The integration events the brand service publishes (topic
 * `brand.brand.v1`, key = brand id): the whole BrandRecord snapshot with its
 * version, as outbox rows to insert in the changing transaction.
 */
import { eventTypes, topics } from '@raly/contracts/events';
import { brandRecordSchema, type BrandRecord } from '@raly/contracts/records';
import { newSnapshotOutboxMessage } from '@raly/service-kit/outbox';

export const eventSource = 'raly/brand';

const brandEvent = (
  type: typeof eventTypes.brandCreated | typeof eventTypes.brandUpdated,
  record: BrandRecord,
) =>
  newSnapshotOutboxMessage({
    topic: topics.brandBrand,
    type,
    source: eventSource,
    schema: brandRecordSchema,
    record,
  });

/** The outbox row of `brand.brand.created`. */
export const brandCreatedEvent = (brand: BrandRecord) => brandEvent(eventTypes.brandCreated, brand);

/** The outbox row of `brand.brand.updated`. */
export const brandUpdatedEvent = (brand: BrandRecord) => brandEvent(eventTypes.brandUpdated, brand);
