/**
 * updateProfileImage / updateCoverImage (spec §7): POST /api/images/:ownerType/:kind
 * with the multipart body of `imageUploadForm`. The answer only says the
 * image is stored; the record's new profileImg / coverImg arrives as the
 * live `user.updated` / `brand.updated` push, which the getMe cache applies
 * (so every open tab, and the header avatar, change together).
 */
import type { ImageKind, ImageOwnerType } from '@raly/contracts/images';
import type { ImageStored } from '@raly/contracts/events';
import { api, unwrapData } from '@/lib/api-client';
import { imageUploadForm, type ImageUpload } from '@/lib/image-file';

export interface UploadImageArgs {
  /** `user`: the signed-in user; `brand`: their brand. */
  ownerType: ImageOwnerType;
  kind: ImageKind;
  upload: ImageUpload;
}

export const imagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadImage: build.mutation<ImageStored, UploadImageArgs>({
      query: ({ ownerType, kind, upload }) => ({
        url: `/images/${ownerType}/${kind}`,
        method: 'POST',
        // fetch sets the multipart content type with its boundary.
        body: imageUploadForm(upload),
      }),
      transformResponse: unwrapData<ImageStored>,
    }),
  }),
});

export const { useUploadImageMutation } = imagesApi;
