import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolveTestStack, type TestStack } from '@raly/infra/test-env';
import { createTestDatabase, uniqueToken, type TestDatabase } from '@raly/service-kit/testing';
import pg from 'pg';
import { start, stop } from '../src/app';

let stack: TestStack;
let database: TestDatabase;

before(async () => {
  stack = await resolveTestStack();
  database = await createTestDatabase('raly_media', path.join(import.meta.dirname, '..'));
});

after(async () => {
  await stop();
  await database.drop();
});

/** Starts media on port 0 against the test stack; `bucket` overrides S3_BUCKET. */
async function startMedia(bucket = stack.s3.bucket): Promise<string> {
  await stop();
  const { port } = await start({
    port: 0,
    env: {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      S3_ENDPOINT: stack.s3.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: stack.s3.region,
      S3_ACCESS_KEY_ID: stack.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: stack.s3.secretAccessKey,
      KAFKA_GROUP_ID: `test-${uniqueToken(12)}`,
      KAFKA_FROM_BEGINNING: 'false',
      LOG_LEVEL: 'silent',
    },
  });
  return `http://127.0.0.1:${port}`;
}

describe('media service', () => {
  test('when it has started and the bucket exists, then it reports live and ready', async () => {
    // Arrange
    const baseUrl = await startMedia();

    // Act
    const [live, ready] = await Promise.all([
      fetch(`${baseUrl}/health/live`),
      fetch(`${baseUrl}/health/ready`),
    ]);

    // Assert
    assert.equal(live.status, 200);
    assert.equal(ready.status, 200);
  });

  test('when its bucket is missing, then it is live but not ready', async () => {
    // Arrange
    const baseUrl = await startMedia(`missing-${uniqueToken()}`);

    // Act
    const [live, ready] = await Promise.all([
      fetch(`${baseUrl}/health/live`),
      fetch(`${baseUrl}/health/ready`),
    ]);

    // Assert
    assert.equal(live.status, 200);
    assert.equal(ready.status, 503);
    const body = (await ready.json()) as { failures: Record<string, string> };
    assert.ok('bucket' in body.failures);
  });

  test('when its migrations have run, then the outbox table exists and is empty', async () => {
    // Arrange
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();

    // Act
    const { rows } = await client
      .query<{ n: number }>('SELECT count(*)::int AS n FROM outbox')
      .finally(() => client.end());

    // Assert
    assert.equal(rows[0]?.n, 0);
  });
});
