/**
 * The media suites' system and helpers: every file that calls
 * {@link useMediaSystem} runs its own Raly (media included) and reads it
 * through the live bindings below once its `beforeAll` has run.
 */
import { beforeAll, afterAll } from 'vitest';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ImageStored } from '@raly/contracts/events';
import type { UserRecord } from '@raly/contracts/records';
import { callApi as call, listenToTopic, sendRaw, type TopicListener } from '@raly/test-support';
import { type RalySystem, startSystem } from '@raly/test-support/system';

/** The smallest valid PNG (1×1), and the first bytes of a JPEG and a WebP with valid magic numbers. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);
export const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(200, 1),
  Buffer.from('ffd9', 'hex'),
]);
export const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.from([0x18, 0, 0, 0]),
  Buffer.alloc(24, 0),
]);

export let system: RalySystem;
/** `media.image.v1`, listened to from the start. */
export let imageEvents: TopicListener;
let s3: S3Client;

/** Starts a Raly with media for the calling test file, and stops it after. */
export function useMediaSystem(): void {
  beforeAll(async () => {
    system = await startSystem({ media: true });
    s3 = new S3Client({
      endpoint: system.stack.s3.endpoint,
      region: system.stack.s3.region,
      forcePathStyle: true,
      credentials: {
        accessKeyId: system.stack.s3.accessKeyId,
        secretAccessKey: system.stack.s3.secretAccessKey,
      },
    });
    imageEvents = await listenToTopic(system.stack.kafkaBrokers, 'media.image.v1');
  });

  afterAll(async () => {
    await imageEvents.stop();
    s3.destroy();
    await system.stop();
  });
}

/**
 * Media's answer to an upload (docs/api.md): `data` on 201, `error` otherwise. Both are typed as
 * present so a test that has asserted the status reads the half it expects.
 */
export interface UploadAnswer {
  status: number;
  body: {
    data: ImageStored;
    error: { code: string; message: string; fields?: Record<string, string> };
  };
}

/** Uploads one file as multipart/form-data (fields name, extension, mimeType, file). */
export async function upload(
  path: string,
  token: string | undefined,
  file: { bytes: Buffer | string; name: string; mimeType: string },
) {
  const form = new FormData();
  form.set('name', file.name);
  form.set('mimeType', file.mimeType);
  form.set(
    'file',
    new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], {
      type: file.mimeType,
    }),
    file.name,
  );
  const response = await fetch(`${system.mediaUrl}${path}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: response.status, body: (await response.json()) as UploadAnswer['body'] };
}

/** Posts raw bytes to media with exactly these headers (bodies `fetch` cannot make: cut off, hand-built). */
export const rawPost = (path: string, headers: Record<string, string>, body: Buffer) =>
  sendRaw<UploadAnswer['body']>(`${system.mediaUrl}${path}`, { headers, body });

export async function objectExists(key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: system.stack.s3.bucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a download URL through this test's media service. Kafka topics are
 * shared: another Raly running on the stack may have made the default
 * picture (same bucket, same key and bytes) under its own MEDIA_PUBLIC_URL.
 */
export const fetchThroughOurMedia = (url: string) => {
  const { pathname, search } = new URL(url);
  return fetch(`${system.mediaUrl}${pathname}${search}`);
};

export const myRecord = async (token: string) =>
  (await call<UserRecord>(system.identityUrl, 'GET', '/users/me', { token })).body.data!;
