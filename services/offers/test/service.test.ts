/** The offers service as a process part: probes and its migrated tables. */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { start, stop } from '../src/app';
import {
  createTestDatabase,
  serviceEnvironment,
  testStack,
  type TestDatabase,
  uniqueToken,
} from '@raly/test-support';
import pg from 'pg';

let database: TestDatabase;
let baseUrl: string;

beforeAll(async () => {
  const stack = await testStack();
  database = await createTestDatabase('offers');
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

describe('offers service', () => {
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

  test('when its migrations have run, then its tables exist empty, with the unique index of one application per creator and offer', async () => {
    // Arrange
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();

    // Act
    const [counts, indexes] = await Promise.all([
      client.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM outbox) + (SELECT count(*) FROM offers)
              + (SELECT count(*) FROM applications) + (SELECT count(*) FROM users)
              + (SELECT count(*) FROM brands) AS n`,
      ),
      client.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE tablename IN ('offers', 'applications') ORDER BY 1`,
      ),
    ]).finally(() => client.end());

    // Assert
    assert.equal(Number(counts.rows[0]?.n), 0);
    const names = indexes.rows.map((row) => row.indexname);
    for (const name of [
      'applications_offer_id_creator_id_key',
      'offers_interests_idx',
      'offers_platforms_idx',
      'offers_open_feed_idx',
      'offers_open_apply_by_idx',
    ])
      assert.ok(names.includes(name), `${name} missing from ${names.join(', ')}`);
  });

  test('when a route needs a caller and none is given, then 401; unknown paths answer 404', async () => {
    // Act
    const [feed, mine, unknown] = await Promise.all([
      fetch(`${baseUrl}/offers`),
      fetch(`${baseUrl}/applications/mine`),
      fetch(`${baseUrl}/nothing-here`),
    ]);

    // Assert
    assert.deepEqual([feed.status, mine.status, unknown.status], [401, 401, 404]);
  });
});
