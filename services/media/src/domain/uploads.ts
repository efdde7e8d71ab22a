/**
 * updateProfileImage / updateCoverImage for users and brands (spec §7):
 *
 *   assertMayReplace → (the api layer streams the file in, at most 5 MB)
 *     → checkImage (type by bytes, SVG sanitised) → put in S3 at the spec key
 *     → record + `media.image.stored` (one transaction) → drop a previous key
 *
 * The owning service consumes the event and sets profileImg or coverImg.
 */
import type { ImageStored } from '@raly/contracts/events';
import { imageKey, type ImageKind, type ImageOwnerType } from '@raly/contracts/images';
import { AppError } from '@raly/service-kit/errors';
import { downloadUrl, type MediaDependencies } from './dependencies';
import { mediaErrors } from './errors';
import { checkImage, type DeclaredFile } from './image-content';
import { imageStoredEvent } from './events';

/** Whose image of which kind an upload replaces. */
export interface UploadTarget {
  ownerType: ImageOwnerType;
  ownerId: string;
  kind: ImageKind;
}

/**
 * Only the user themself replaces a user's image; only a member of the
 * brand replaces a brand's (our rule; the spec leaves access rules open, §6).
 * @throws AppError permission-denied; internal when services/brand cannot answer
 */
export async function assertMayReplace(
  dependencies: MediaDependencies,
  userId: string,
  target: UploadTarget,
): Promise<void> {
  if (target.ownerType === 'user') {
    if (target.ownerId !== userId) throw mediaErrors.notTheOwner();
    return;
  }
  let isMember: boolean;
  try {
    isMember = await dependencies.brands.isMember(target.ownerId, userId);
  } catch (error) {
    throw mediaErrors.uploadFailed(error);
  }
  if (!isMember) throw mediaErrors.notTheOwner();
}

/**
 * Checks and stores an uploaded image, then records its event.
 * @param bytes the whole file, at most IMAGE_MAX_BYTES (the api layer enforces it while streaming)
 * @returns the event's data: key, download URL, content type, size
 * @throws AppError invalid-argument (type), internal 'Hmm, there was a problem. Try again.'
 */
export async function storeUpload(
  dependencies: MediaDependencies,
  target: UploadTarget,
  declared: DeclaredFile,
  bytes: Buffer,
): Promise<ImageStored> {
  const image = await checkImage(declared, bytes);
  const key = imageKey(target.ownerType, target.kind, target.ownerId, image.extension);
  try {
    const previousKey = await dependencies.images.currentKey(
      target.ownerType,
      target.ownerId,
      target.kind,
    );
    await dependencies.bucket.put(key, image.bytes, image.contentType);
    const stored = await dependencies.images.recordUpload(
      { ...target, key, contentType: image.contentType, sizeBytes: image.bytes.length },
      (storedKey, version) => downloadUrl(dependencies, storedKey, version),
      imageStoredEvent,
    );
    if (previousKey && previousKey !== key) await dropObject(dependencies, previousKey);
    return stored;
  } catch (error) {
    throw error instanceof AppError ? error : mediaErrors.uploadFailed(error);
  }
}

/** Best effort: a leftover object wastes space but shows nowhere. */
async function dropObject(dependencies: MediaDependencies, key: string): Promise<void> {
  try {
    await dependencies.bucket.delete(key);
  } catch (error) {
    dependencies.logger.warn({ err: error, key }, 'could not delete the replaced image');
  }
}
