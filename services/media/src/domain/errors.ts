/**
 * Every expected failure of the media service, with the spec text the
 * caller sees (spec §5, §8), in one table.
 */
import { messages } from '@raly/contracts/messages';
import { AppError, failedBecauseOf } from '@raly/service-kit/errors';

export const mediaErrors = {
  /** Spec §5: larger than 5 MB, detected while the upload streams in. */
  imageTooLarge: () =>
    new AppError('payload-too-large', messages.imageTooLarge, {
      fields: { file: messages.imageTooLarge },
    }),
  /** Not an accepted image (spec §9 types), or the bytes are not what the name and type say. */
  imageRejected: (reason: string) =>
    new AppError('invalid-argument', messages.genericProblem, { fields: { file: reason } }),
  /** An upload that is not multipart/form-data (spec §3 image upload payload). */
  notMultipart: () =>
    new AppError('unsupported-media-type', messages.genericProblem, {
      fields: { file: 'Send the image as multipart/form-data' },
    }),
  /** A brand image upload must name the brand (`?ownerId=`). */
  brandOwnerIdMissing: () =>
    new AppError('invalid-argument', messages.genericProblem, {
      fields: { ownerId: 'Name the brand with ?ownerId=' },
    }),
  /** Only the owner, or a member of the brand, may replace an image (our rule; the spec leaves access rules open, §6). */
  notTheOwner: () => new AppError('permission-denied', messages.genericProblem),
  /** Spec §8 image upload failure. */
  uploadFailed: (cause: unknown) => failedBecauseOf(messages.genericProblem, cause),
  /** A submission image for a collaboration that does not exist or the caller is not a party of. */
  collaborationNotFound: () => new AppError('not-found', messages.collaborationNotFound),
  /** Only the collaboration's creator hands work in, images included. */
  onlyTheCreatorCan: () => new AppError('permission-denied', messages.onlyTheCreatorCan),
  /** A completed or cancelled collaboration takes no more work. */
  collaborationNotActive: () => new AppError('conflict', messages.collaborationNotActive),
  /** No such file. */
  fileNotFound: () => new AppError('not-found', messages.pageNotFound),
};
