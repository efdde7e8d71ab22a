/**
 * `GET /files/<key>` (public; docs/api.md): the download URLs saved in
 * profileImg and coverImg. Streams the object from S3 with its content type;
 * `nosniff` and a CSP that forbids scripts, so even an SVG opened directly
 * cannot run anything.
 */
import { Router } from 'express';
import type { MediaDependencies } from '../domain/dependencies';
import { mediaErrors } from '../domain/errors';

/** The keys of spec §7 and nothing else. */
const KEY_PATTERN =
  /^(user|brand)\/(profile|cover)-img\/[A-Za-z0-9-]{1,100}\.(png|jpeg|jpg|svg|webp)$/;

export function filesRouter(dependencies: MediaDependencies): Router {
  const router = Router();
  router.get('/files/*key', async (req, res) => {
    const segments = (req.params as { key?: string[] }).key ?? [];
    const key = segments.join('/');
    if (!KEY_PATTERN.test(key)) throw mediaErrors.fileNotFound();
    const object = await dependencies.bucket.get(key);
    if (!object) throw mediaErrors.fileNotFound();
    res.set({
      'content-type': object.contentType,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      // A versioned URL (`?v=`) never changes; the bare key may.
      'cache-control': req.query.v
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=0, must-revalidate',
      ...(object.contentLength !== undefined
        ? { 'content-length': String(object.contentLength) }
        : {}),
      ...(object.etag ? { etag: object.etag } : {}),
    });
    object.body.on('error', () => res.destroy());
    object.body.pipe(res);
  });
  return router;
}
