/**
 * Images handed in with a collaboration's submissions (docs/product-spec.md
 * "Collaborations"): checked like every upload (type by bytes, SVG
 * sanitised, at most 5 MB, the same messages), stored in S3 under the
 * collaboration (`deliverableImageKey`) with a random id, and never at a
 * public key: `GET /files/*` does not serve them. Only the collaboration's
 * creator uploads one; only its parties read one, once a submission carries
 * it. Both checks ask services/collaborations as the caller.
 */
import { randomUUID } from 'node:crypto';
import {
  DELIVERABLE_IMAGE_ID_PATTERN,
  deliverableImageKey,
  type DeliverableImage,
} from '@raly/contracts/collaboration-work';
import { AppError } from '@raly/service-kit/errors';
import type { StoredObject } from '../data-access/image-bucket';
import type { MediaDependencies } from './dependencies';
import { mediaErrors } from './errors';
import { checkImage, type DeclaredFile } from './image-content';

/** Who asks: the user and their access token, forwarded to collaborations. */
export interface ImageCaller {
  userId: string;
  accessToken: string;
}

/**
 * Refuses an upload before its body is read unless the caller is the creator of an active
 * collaboration.
 * @throws AppError not-found collaborationNotFound (unknown, or not a party); permission-denied
 *   onlyTheCreatorCan (the brand's side); conflict collaborationNotActive; internal when
 *   collaborations fails
 */
export async function assertMayAttach(
  dependencies: MediaDependencies,
  caller: ImageCaller,
  collaborationId: string,
): Promise<void> {
  let collaboration;
  try {
    collaboration = await dependencies.collaborations.collaborationOf(
      collaborationId,
      caller.accessToken,
    );
  } catch (error) {
    throw error instanceof AppError ? error : mediaErrors.uploadFailed(error);
  }
  if (!collaboration) throw mediaErrors.collaborationNotFound();
  if (collaboration.creatorId !== caller.userId) throw mediaErrors.onlyTheCreatorCan();
  if (collaboration.status !== 'active') throw mediaErrors.collaborationNotActive();
}

/**
 * Checks and stores a submission image.
 * @param bytes the whole file, at most IMAGE_MAX_BYTES (the api layer enforces it while streaming)
 * @returns its id (`<uuid>.<extension>`, for the submission), content type and size in bytes
 * @throws AppError invalid-argument (type), internal 'Hmm, there was a problem. Try again.'
 */
export async function storeDeliverableImage(
  dependencies: MediaDependencies,
  collaborationId: string,
  declared: DeclaredFile,
  bytes: Buffer,
): Promise<DeliverableImage> {
  const image = await checkImage(declared, bytes);
  const imageId = `${randomUUID()}.${image.extension}`;
  try {
    await dependencies.bucket.put(
      deliverableImageKey(collaborationId, imageId),
      image.bytes,
      image.contentType,
    );
  } catch (error) {
    throw mediaErrors.uploadFailed(error);
  }
  return { imageId, contentType: image.contentType, sizeBytes: image.bytes.length };
}

/**
 * A submission image for one of the collaboration's parties.
 * @returns the object to stream
 * @throws AppError not-found pageNotFound when the id is malformed, the caller is not a party,
 *   no submission carries the image or the bytes are gone (never told apart)
 */
export async function readDeliverableImage(
  dependencies: MediaDependencies,
  caller: ImageCaller,
  collaborationId: string,
  imageId: string,
): Promise<StoredObject> {
  if (!DELIVERABLE_IMAGE_ID_PATTERN.test(imageId)) throw mediaErrors.fileNotFound();
  const attached = await dependencies.collaborations.isAttached(
    collaborationId,
    imageId,
    caller.accessToken,
  );
  if (!attached) throw mediaErrors.fileNotFound();
  const object = await dependencies.bucket.get(deliverableImageKey(collaborationId, imageId));
  if (!object) throw mediaErrors.fileNotFound();
  return object;
}
