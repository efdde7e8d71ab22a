/** The S3 bucket holding image bytes (S3-compatible store; path-style URLs). */
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../config';

/** An object read from the bucket. */
export interface StoredObject {
  body: Readable;
  contentType: string;
  contentLength: number | undefined;
  etag: string | undefined;
}

export interface ImageBucket {
  client: S3Client;
  name: string;
  /** Resolves when the bucket exists and answers; the readiness probe. */
  assertExists(): Promise<void>;
  /** Writes the object with its content type. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Deletes the object (a missing one is fine). */
  delete(key: string): Promise<void>;
  close(): void;
}

/** The bucket of `S3_BUCKET` on `S3_ENDPOINT`. */
export function openImageBucket(config: Config): ImageBucket {
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: true,
    credentials: {
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    },
  });
  const Bucket = config.S3_BUCKET;
  return {
    client,
    name: Bucket,
    async assertExists() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }),
      );
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return {
          body: answer.Body as Readable,
          contentType: answer.ContentType ?? 'application/octet-stream',
          contentLength: answer.ContentLength,
          etag: answer.ETag,
        };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
          return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    close: () => client.destroy(),
  };
}
