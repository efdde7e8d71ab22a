/**
 * The image service of spec §8: an upload answers true or false; a failure
 * carries no message and is only logged (lib/service-outcome). The picker
 * turns false into 'Hmm, there was a problem. Try again.'. The upload call
 * is handed in, so the service has no React or store in it.
 */
import type { ImageStored } from '@raly/contracts/events';
import type { UploadImageArgs } from '@/features/images/api/images-api';
import { logFailure, succeeded, type FailureLog } from '@/lib/service-outcome';

export interface ImageCalls {
  /** POST /api/images/:ownerType/:kind: what was stored, or throws. */
  uploadImage(args: UploadImageArgs): Promise<ImageStored>;
}

export interface ImageService {
  /** @returns true once the image is stored; false when the upload failed (logged, no message) */
  uploadImage(args: UploadImageArgs): Promise<boolean>;
}

/** @param log where failures are written (default: console.error) */
export function createImageService(calls: ImageCalls, log: FailureLog = logFailure): ImageService {
  return {
    uploadImage: (args) =>
      succeeded(`${args.ownerType} ${args.kind} image upload`, () => calls.uploadImage(args), log),
  };
}
