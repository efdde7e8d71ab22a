import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { resolveTestStack } from '@raly/test-support';
import pg from 'pg';
import { uniqueViolationOf } from '../src/errors';
import { dropDatabase, uniqueToken } from '@raly/test-support';
import { createDatabaseIfMissing } from '../src/migrate';

describe('uniqueViolationOf', () => {
  test('when Postgres refuses a duplicate through pg, then it names the constraint; any other error gives undefined', async () => {
    // Arrange
    const stack = await resolveTestStack();
    const url = stack.databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
    await createDatabaseIfMissing(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE t (a int CONSTRAINT t_a_key UNIQUE, b int CHECK (b > 0))');
      await client.query('INSERT INTO t (a, b) VALUES (1, 1)');

      // Act
      const duplicate = await client
        .query('INSERT INTO t (a, b) VALUES (1, 2)')
        .catch((e: unknown) => e);
      const check = await client
        .query('INSERT INTO t (a, b) VALUES (2, -1)')
        .catch((e: unknown) => e);

      // Assert
      assert.deepEqual(uniqueViolationOf(duplicate), { constraint: 't_a_key' });
      assert.equal(uniqueViolationOf(check), undefined);
      assert.equal(
        uniqueViolationOf(new Error('duplicate key value violates unique constraint "t_a_key"')),
        undefined,
      );
    } finally {
      await client.end();
      await dropDatabase(url);
    }
  });
});
