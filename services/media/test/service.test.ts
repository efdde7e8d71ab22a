import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { start, stop } from '../src/app';
import {
  createTestDatabase,
  serviceEnvironment,
  testStack,
  type TestDatabase,
  type TestStack,
  uniqueToken,
} from '@raly/test-support';

let stack: TestStack;
let database: TestDatabase;

beforeAll(async () => {
  stack = await testStack();
  database = await createTestDatabase('media');
});

afterAll(async () => {
  await stop();
  await database.drop();
});

/** Starts media on port 0 against the test stack; `bucket` overrides S3_BUCKET. */
async function startMedia(bucket = stack.s3.bucket): Promise<string> {
  await stop();
  const { port } = await start({
    port: 0,
    env: {
      ...serviceEnvironment(stack),
      DATABASE_URL: database.url,
      S3_BUCKET: bucket,
      KAFKA_GROUP_ID: `test-${uniqueToken(12)}`,
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
