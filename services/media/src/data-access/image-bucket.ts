/** The S3 bucket holding image bytes (S3-compatible store; path-style URLs). */
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config';

export interface ImageBucket {
  client: S3Client;
  name: string;
  /** Resolves when the bucket exists and answers; the readiness probe. */
  assertExists(): Promise<void>;
  close(): void;
}

/** The bucket of `S3_BUCKET` on `S3_ENDPOINT`. */
export function openImageBucket(config: Config): ImageBucket {
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
  });
  return {
    client,
    name: config.S3_BUCKET,
    async assertExists() {
      await client.send(new HeadBucketCommand({ Bucket: config.S3_BUCKET }));
    },
    close: () => client.destroy(),
  };
}
