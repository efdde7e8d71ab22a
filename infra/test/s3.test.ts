import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { resolveTestStack } from '../src/test-env';

test('when an object is put into the media bucket, then getting it answers the same bytes and content type', async () => {
  // Arrange
  const stack = await resolveTestStack();
  const s3 = new S3Client({
    endpoint: stack.s3.endpoint,
    region: stack.s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: stack.s3.accessKeyId, secretAccessKey: stack.s3.secretAccessKey },
  });
  const key = `infra-test/${randomUUID()}.png`;
  const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);

  // Act
  await s3.send(
    new PutObjectCommand({
      Bucket: stack.s3.bucket,
      Key: key,
      Body: body,
      ContentType: 'image/png',
    }),
  );
  const object = await s3.send(new GetObjectCommand({ Bucket: stack.s3.bucket, Key: key }));

  // Assert
  assert.equal(object.ContentType, 'image/png');
  assert.deepEqual(Buffer.from(await object.Body!.transformToByteArray()), body);
  s3.destroy();
});
