/**
 * A submission's image (docs/api.md "Collaborations"):
 * `POST /api/collaborations/:id/images` streams the creator's upload
 * (multipart/form-data) through to services/media, which checks it like
 * every image and answers its id for the submission;
 * `GET /api/collaborations/:id/images/:imageId` relays the bytes. Media asks
 * services/collaborations with the user's own token, so only the
 * collaboration's parties read an image (anyone else: 404), and only once a
 * submission carries it. Mounted before the JSON body parser: the upload's
 * body is forwarded unread.
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import { servicePath } from '@raly/service-kit/service-path';
import type { Authenticator } from '../auth/keycloak';
import type { MediaUpload } from '../data-access/media-upload';
import { bffErrors } from '../domain/errors';

/** Mounted at `/collaborations`; every other path falls through to the JSON routes. */
export function collaborationImagesRouter(
  authenticator: Authenticator,
  media: MediaUpload,
): Router {
  return Router()
    .post('/:id/images', authenticator.requireUser, async (request, response) => {
      const caller = callerOf(request);
      // Media reads only multipart/form-data: anything else is refused here, never forwarded.
      if (!request.is('multipart/form-data')) throw bffErrors.notMultipart();
      const path = servicePath([
        'collaborations',
        request.params.id as string,
        'deliverable-images',
      ]);
      await media.forward(request, response, path, caller.accessToken);
    })
    .get('/:id/images/:imageId', authenticator.requireUser, async (request, response) => {
      const caller = callerOf(request);
      const { id, imageId } = request.params as { id: string; imageId: string };
      const path = servicePath(['collaborations', id, 'deliverable-images', imageId]);
      await media.relayRead(response, path, caller.accessToken);
    });
}
