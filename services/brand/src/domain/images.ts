/**
 * Applies images media stored for brands (spec §7): profileImg or coverImg
 * becomes the download URL, and `brand.brand.updated` carries it to the
 * members' open tabs. Idempotent: an event whose URL the brand already
 * shows changes nothing; a default picture never replaces an upload.
 */
import type { Envelope, ImageStored } from '@raly/contracts/events';
import type { BrandDependencies } from './dependencies';
import { brandUpdatedEvent } from './events';

/** Handles `media.image.stored`; images of other owners are not ours. */
export async function applyStoredImage(
  dependencies: BrandDependencies,
  event: Envelope<ImageStored>,
): Promise<void> {
  const image = event.data;
  if (image.ownerType !== 'brand') return;
  const updated = await dependencies.brands.setImageWithEvent(
    image.ownerId,
    image.kind,
    image.url,
    image.isDefault === true,
    brandUpdatedEvent,
  );
  if (!updated)
    dependencies.logger.debug(
      { eventId: event.id, brandId: image.ownerId },
      'image event changed nothing',
    );
}
