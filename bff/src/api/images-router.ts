/**
 * POST /api/images/:ownerType/:kind (docs/api.md): a profile or cover image
 * for the signed-in user (`user`) or their brand (`brand`), streamed through
 * to services/media. The owner is always taken from the token and the
 * user's record, never from the request. A body that is not
 * multipart/form-data gets 415 without reaching media.
 */
import { imageKindSchema, imageOwnerTypeSchema } from '@raly/contracts/images';
import { Router } from 'express';
import { z } from 'zod';
import { callerOf } from '@raly/service-kit/auth';
import { servicePath } from '@raly/service-kit/service-path';
import type { Authenticator } from '../auth/keycloak';
import type { MediaUpload } from '../data-access/media-upload';
import { myBrandId } from '../domain/brands';
import type { MeDependencies } from '../domain/me';
import { bffErrors } from '../domain/errors';

const paramsSchema = z.object({ ownerType: imageOwnerTypeSchema, kind: imageKindSchema });

export function imagesRouter(
  authenticator: Authenticator,
  dependencies: MeDependencies,
  media: MediaUpload,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .post('/:ownerType/:kind', async (request, response) => {
      const caller = callerOf(request);
      // Media reads only multipart/form-data: anything else is refused here, never forwarded.
      if (!request.is('multipart/form-data')) throw bffErrors.notMultipart();
      const params = paramsSchema.safeParse(request.params);
      if (!params.success) throw bffErrors.notFound();
      const { ownerType, kind } = params.data;
      const path =
        ownerType === 'user'
          ? servicePath(['images', 'user', kind])
          : servicePath(['images', 'brand', kind], {
              ownerId: await myBrandId(dependencies, caller),
            });
      await media.forward(request, response, path, caller.accessToken);
    });
}
