import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolveTestStack } from '@raly/infra/test-env';
import { createTestDatabase, uniqueToken, type TestDatabase } from '@raly/service-kit/testing';
import pg from 'pg';
import { start, stop } from '../src/app';

let database: TestDatabase;
let baseUrl: string;

before(async () => {
  const stack = await resolveTestStack();
  database = await createTestDatabase('raly_brand', path.join(import.meta.dirname, '..'));
  const { port } = await start({
    port: 0,
    env: {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      KAFKA_GROUP_ID: `test-${uniqueToken(12)}`,
      KAFKA_FROM_BEGINNING: 'false',
      LOG_LEVEL: 'silent',
    },
  });
  baseUrl = `http://127.0.0.1:${port}`;
});

after(async () => {
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
