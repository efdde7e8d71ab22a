import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { start, stop } from '../src/app';
import {
  createTestDatabase,
  serviceEnvironment,
  testStack,
  type TestDatabase,
  uniqueToken,
} from '@raly/test-support';

let database: TestDatabase;
let baseUrl: string;

beforeAll(async () => {
  const stack = await testStack();
  database = await createTestDatabase('brand');
  const { port } = await start({
    port: 0,
    env: {
      ...serviceEnvironment(stack),
      DATABASE_URL: database.url,
      KAFKA_GROUP_ID: `test-${uniqueToken(12)}`,
    },
  });
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await stop();
  await database.drop();
});

describe('brand service', () => {
  test('when it has started, then it reports live and ready', async () => {
    // Act
    const [live, ready] = await Promise.all([
      fetch(`${baseUrl}/health/live`),
      fetch(`${baseUrl}/health/ready`),
    ]);

    // Assert
    assert.equal(live.status, 200);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ok' });
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
