/** What the media use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { BrandClient } from '../data-access/brand-client';
import type { CollaborationsClient } from '../data-access/collaborations-client';
import type { ImageBucket } from '../data-access/image-bucket';
import type { ImageRepository } from '../data-access/image-repository';

export interface MediaDependencies {
  bucket: ImageBucket;
  images: ImageRepository;
  /** services/brand (membership checks). */
  brands: BrandClient;
  /** services/collaborations (who may upload or read a submission image), as the caller. */
  collaborations: CollaborationsClient;
  /** MEDIA_PUBLIC_URL: download URLs are `${publicUrl}/files/<key>?v=<version>`. */
  publicUrl: string;
  logger: Logger;
}

/** The download URL of a stored key at a version (served by `GET /files/*`). */
export const downloadUrl = (
  dependencies: Pick<MediaDependencies, 'publicUrl'>,
  key: string,
  version: number,
): string => `${dependencies.publicUrl.replace(/\/$/, '')}/files/${key}?v=${version}`;
