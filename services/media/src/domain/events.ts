/**
 * The integration event media raises (topic `media.image.v1`, key = the
 * owner id, so one owner's images stay in order): `media.image.stored`.
 * The upload use cases hand it to the repository (`recordUpload(image,
 * urlOf, imageStoredEvent)`), which calls it with what it recorded and the
 * image's new version and inserts the outbox row in the same transaction.
 */
import {
  eventTypes,
  imageStoredSchema,
  topics,
  type Envelope,
  type ImageStored,
} from '@raly/contracts/events';
import { newOutboxMessage, type OutboxRow } from '@raly/service-kit/outbox';

export const eventSource = 'raly/media';

/**
 * The outbox row of `media.image.stored`.
 * @param version the image's version for this owner and kind
 */
export function imageStoredEvent(image: ImageStored, version: number): OutboxRow {
  const message = newOutboxMessage({
    topic: topics.mediaImage,
    type: eventTypes.imageStored,
    source: eventSource,
    subject: image.ownerId,
    version,
    data: imageStoredSchema.parse(image),
  });
  return { ...message, envelope: message.envelope as Envelope<ImageStored> & object };
}
