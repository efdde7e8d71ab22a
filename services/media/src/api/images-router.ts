/**
 * `POST /images/:ownerType/:kind` (bearer; docs/api.md): updateProfileImage
 * and updateCoverImage for users and brands. `ownerType` is `user` or
 * `brand`, `kind` is `profile` or `cover`; `?ownerId=` names the brand (a
 * user's own id is the default for `user`).
 */
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { imageKindSchema, imageOwnerTypeSchema } from '@raly/contracts/images';
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router, type ErrorRequestHandler } from 'express';
import { z } from 'zod';
import type { MediaDependencies } from '../domain/dependencies';
import { mediaErrors } from '../domain/errors';
import { assertMayReplace, storeUpload, type UploadTarget } from '../domain/uploads';
import { receiveFile } from './multipart-upload';

const paramsSchema = z.object({ ownerType: imageOwnerTypeSchema, kind: imageKindSchema });
const querySchema = z.object({ ownerId: z.string().min(1).max(100).optional() });

export function imagesRouter(
  dependencies: MediaDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  router.post(
    '/images/:ownerType/:kind',
    requireAccessToken(verifyAccessToken),
    async (req, res) => {
      const userId = callerOf(req).userId;
      const { ownerType, kind } = paramsSchema.parse(req.params);
      const { ownerId } = querySchema.parse(req.query);
      if (ownerType === 'brand' && !ownerId) throw mediaErrors.brandOwnerIdMissing();
      const target: UploadTarget = { ownerType, kind, ownerId: ownerId ?? userId };
      await assertMayReplace(dependencies, userId, target);
      const file = await receiveFile(req, IMAGE_MAX_BYTES);
      const stored = await storeUpload(dependencies, target, file.declared, file.bytes);
      res.status(201).json({ data: stored });
    },
  );
  // An answer given before the body was read (401, 403, 413): discard the rest unread.
  // (The connection stays open: closing it while the caller still sends could
  // cut the caller off before it reads the answer, e.g. the BFF relaying it.)
  const discardBody: ErrorRequestHandler = (error, req, _res, next) => {
    req.resume();
    next(error);
  };
  router.use('/images', discardBody);
  return router;
}
