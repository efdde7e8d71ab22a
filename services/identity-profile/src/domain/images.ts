/**
 * Applies images media stored for users (spec §7): profileImg or coverImg
 * becomes the download URL, and `identity.user.updated` carries it to the
 * user's open tabs. Idempotent: an event whose URL the record already shows
 * changes nothing; a default picture never replaces an upload.
 */
import type { Envelope, ImageStored } from '@raly/contracts/events';
import type { IdentityDependencies } from './dependencies';
import { userUpdatedEvent } from './events';

/** Handles `media.image.stored`; brands' images are services/brand's. */
export async function applyStoredImage(
  dependencies: IdentityDependencies,
  event: Envelope<ImageStored>,
): Promise<void> {
  const image = event.data;
  if (image.ownerType !== 'user') return;
  const updated = await dependencies.userImages.setWithEvent(
    image.ownerId,
    image.kind,
    image.url,
    image.isDefault === true,
    userUpdatedEvent,
  );
  if (!updated)
    dependencies.logger.debug(
      { eventId: event.id, userId: image.ownerId },
      'image event changed nothing',
    );
}
