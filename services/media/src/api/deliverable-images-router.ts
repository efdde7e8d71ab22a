/**
 * Submission images (bearer; docs/api.md): `POST
 * /collaborations/:collaborationId/deliverable-images` stores one for the
 * collaboration's creator (multipart/form-data, the same limits and
 * messages as profile images) and answers its id; `GET
 * /collaborations/:collaborationId/deliverable-images/:imageId` streams one
 * to the collaboration's parties once a submission carries it. Never cached
 * by shared caches; `nosniff` and a CSP that forbids scripts.
 */
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router, type ErrorRequestHandler } from 'express';
import type { MediaDependencies } from '../domain/dependencies';
import {
  assertMayAttach,
  readDeliverableImage,
  storeDeliverableImage,
} from '../domain/deliverable-images';
import { receiveFile } from './multipart-upload';

export function deliverableImagesRouter(
  dependencies: MediaDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  const user = requireAccessToken(verifyAccessToken);
  const param = (value: unknown) => value as string;
  router.post('/collaborations/:collaborationId/deliverable-images', user, async (req, res) => {
    const caller = callerOf(req);
    const collaborationId = param(req.params.collaborationId);
    await assertMayAttach(dependencies, caller, collaborationId);
    const file = await receiveFile(req, IMAGE_MAX_BYTES);
    const stored = await storeDeliverableImage(
      dependencies,
      collaborationId,
      file.declared,
      file.bytes,
    );
    res.status(201).json({ data: stored });
  });
  router.get(
    '/collaborations/:collaborationId/deliverable-images/:imageId',
    user,
    async (req, res) => {
      const object = await readDeliverableImage(
        dependencies,
        callerOf(req),
        param(req.params.collaborationId),
        param(req.params.imageId),
      );
      res.set({
        'content-type': object.contentType,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        // An image id never names other bytes; only the reader's own browser keeps a copy.
        'cache-control': 'private, max-age=3600',
        ...(object.contentLength !== undefined
          ? { 'content-length': String(object.contentLength) }
          : {}),
      });
      object.body.on('error', () => res.destroy());
      object.body.pipe(res);
    },
  );
  // An answer given before the body was read (401, 403, 404, 409, 413): discard the rest unread.
  const discardBody: ErrorRequestHandler = (error, req, _res, next) => {
    req.resume();
    next(error);
  };
  router.use('/collaborations', discardBody);
  return router;
}
