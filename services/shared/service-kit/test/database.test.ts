/**
 * The kit's database pool (./src/database.ts) when Postgres ends its
 * connections (a failover, an administrator, a forced DROP DATABASE): the
 * process keeps running and the pool answers again.
 */
import assert from 'node:assert/strict';
import pg from 'pg';
import { resolveTestStack } from '@raly/test-stack';
import { describe, test } from 'vitest';
import { openDatabase } from '../src/database';

describe('openDatabase', () => {
  test('when Postgres ends a connection that is checked out between two queries, then the process does not crash, the next query on it fails, and the pool answers again', async () => {
    // Arrange
    const stack = await resolveTestStack();
    const url = stack.databaseUrl('postgres');
    // No Prisma here: a stand-in client the kit can extend and disconnect.
    const client = { $disconnect: async () => {}, $extends: () => client };
    const database = openDatabase(url, () => client, { poolMax: 2 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const held = await database.pool.connect();
      const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');

      // Act: ended while checked out, as an open transaction's connection would be.
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 200));

      // Assert: no uncaught 'error' (vitest fails the run on one); the held connection is broken…
      await assert.rejects(held.query('SELECT 1'));
      held.release(true);
      // …and the pool opens a fresh one.
      await database.ping();
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
