/**
 * The integration events the brand service publishes (topic
 * `brand.brand.v1`, key = brand id): the whole BrandRecord snapshot with its
 * version, as outbox rows to insert in the changing transaction.
 */
import { eventTypes, topics } from '@raly/contracts/events';
import { brandRecordSchema, type BrandRecord } from '@raly/contracts/records';
import { newOutboxMessage } from '@raly/service-kit/outbox';

export const eventSource = 'raly/brand';

function brandEvent(type: typeof eventTypes.brandCreated | typeof eventTypes.brandUpdated, brand: BrandRecord) {
  const message = newOutboxMessage({
    topic: topics.brandBrand,
    type,
    source: eventSource,
    subject: brand.id,
    version: brand.version,
    // Validate on the way out: a consumer must never receive a snapshot it cannot parse.
    data: brandRecordSchema.parse(brand),
  });
  return { ...message, envelope: message.envelope as object };
}

/** The outbox row of `brand.brand.created`. */
export const brandCreatedEvent = (brand: BrandRecord) => brandEvent(eventTypes.brandCreated, brand);

/** The outbox row of `brand.brand.updated`. */
export const brandUpdatedEvent = (brand: BrandRecord) => brandEvent(eventTypes.brandUpdated, brand);
