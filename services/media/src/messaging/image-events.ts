/**
 * The integration event media publishes (topic `media.image.v1`, key = the
 * owner id, so one owner's images stay in order): `media.image.stored`.
 */
import { eventTypes, imageStoredSchema, topics, type ImageStored } from '@raly/contracts/events';
import { newOutboxMessage } from '@raly/service-kit/outbox';

export const eventSource = 'raly/media';

/**
 * The outbox row of `media.image.stored`.
 * @param version the image's version for this owner and kind
 */
export function imageStoredEvent(image: ImageStored, version: number) {
  const message = newOutboxMessage({
    topic: topics.mediaImage,
    type: eventTypes.imageStored,
    source: eventSource,
    subject: image.ownerId,
    version,
    data: imageStoredSchema.parse(image),
  });
  return { ...message, envelope: message.envelope as object };
}
