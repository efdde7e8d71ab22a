/**
 * A submission's image through the BFF (docs/api.md "Collaborations"):
 * `POST /api/collaborations/:id/images` with the multipart body of
 * `imageUploadForm` answers the stored image's id, which the submission
 * then carries. Media checks the file again (type by its bytes, at most
 * 5 MB) and answers the same messages as every image upload.
 */
import type { DeliverableImage } from '@raly/contracts/collaboration-work';
import { api, unwrapData } from '@/lib/api-client';
import { imageUploadForm, type ImageUpload } from '@/lib/image-file';

export const deliverableImagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/collaborations/:id/images (the creator of an active collaboration). */
    uploadDeliverableImage: build.mutation<
      DeliverableImage,
      { collaborationId: string; upload: ImageUpload }
    >({
      query: ({ collaborationId, upload }) => ({
        url: `/collaborations/${encodeURIComponent(collaborationId)}/images`,
        method: 'POST',
        // fetch sets the multipart content type with its boundary.
        body: imageUploadForm(upload),
      }),
      transformResponse: unwrapData<DeliverableImage>,
    }),
  }),
});

export const { useUploadDeliverableImageMutation } = deliverableImagesApi;
