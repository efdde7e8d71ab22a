/**
 * The images handed in with submissions (docs/product-spec.md
 * "Collaborations": a submission may carry an image through media/S3). The
 * media service stores and serves the bytes; before it serves them it asks
 * here, with the reader's own token, whether the reader is one of the
 * collaboration's parties and the image one of the collaboration's.
 */
import type { Caller } from '@raly/service-kit/auth';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationsErrors } from './errors';
import { collaborationOfParty } from './parties';

/** A submission image as its collaboration's parties see it. */
export interface AttachedImage {
  imageId: string;
  deliverableId: string;
  round: number;
}

/**
 * `GET /collaborations/:id/images/:imageId`, for the collaboration's parties.
 * @returns the deliverable and round the image was handed in with
 * @throws AppError not-found collaborationNotFound (unknown, or the caller is no party);
 *   not-found pageNotFound when the image is not one of the collaboration's submissions'
 */
export async function attachedImage(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  imageId: string,
): Promise<AttachedImage> {
  const { collaboration } = await collaborationOfParty(dependencies, caller, collaborationId);
  const found = await dependencies.collaborations.findImage(collaboration.id, imageId);
  if (!found) throw collaborationsErrors.imageNotFound();
  return { imageId, ...found };
}
