import assert from 'node:assert/strict';
import { PrismaPg } from '@prisma/adapter-pg';
import { describe, test } from 'vitest';
import { resolveTestStack } from '@raly/test-stack';
import pg from 'pg';
import { z } from 'zod';
import {
  AppError,
  failedBecauseOf,
  inWordsOf,
  isDatabaseUnavailable,
  neutralFailureMessages,
  toAppError,
  uniqueViolationOf,
} from '../src/errors';
import { dropDatabase, uniqueToken } from '@raly/test-stack';
import { createDatabaseIfMissing } from '../src/migrate';
import { PrismaClient } from './fixtures/generated/prisma/client';

describe("the kit's own failures", () => {
  const appWords = { badRequest: 'Bad request!', notFound: 'Nothing here!', internal: 'Oops!' };

  test("when the kit classifies a failure of its own, then it says the kit's neutral words until the app's edge says the app's", () => {
    // Arrange
    const unknown = toAppError(new Error('boom'));
    const unnamed = toAppError(new z.ZodError([]));
    const named = toAppError(z.object({ name: z.string('Name is required') }).safeParse({}).error);

    // Act
    const shown = [unknown, unnamed, named].map((error) => inWordsOf(error, appWords));

    // Assert
    assert.deepEqual(
      [unknown, unnamed].map((error) => [error.code, error.failure, error.message]),
      [
        ['internal', 'internal', neutralFailureMessages.internal],
        ['invalid-argument', 'badRequest', neutralFailureMessages.badRequest],
      ],
    );
    assert.deepEqual(
      shown.map((error) => [error.code, error.httpStatus, error.message, error.fields]),
      [
        ['internal', 500, 'Oops!', undefined],
        ['invalid-argument', 400, 'Bad request!', undefined],
        ['invalid-argument', 400, 'Name is required', { name: 'Name is required' }],
      ],
    );
    assert.equal(shown[2], named, "an error of the app's own is shown as it is");
  });
});

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

describe('a database away for the moment', () => {
  test('when Postgres ends a pooled connection (pg_terminate_backend) under a query, then the error is a 503 unavailable, not a 500, also as a domain failure with its own message', async () => {
    // Arrange
    const stack = await resolveTestStack();
    const url = stack.databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
    await createDatabaseIfMissing(url);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on('error', () => undefined); // the ended idle client is reported here
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const client = await pool.connect();
      client.on('error', () => undefined);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');

      // Act: the query is running when its backend is terminated.
      const running = client.query('SELECT pg_sleep(5)').catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      const failure = await running;
      client.release(true);
      const refused = await new pg.Client({ connectionString: url.replace(/:\d+\//, ':1/') })
        .connect()
        .catch((e: unknown) => e);

      // Assert
      for (const error of [failure, refused]) {
        assert.ok(isDatabaseUnavailable(error), String(error));
        const appError = toAppError(error);
        assert.deepEqual([appError.code, appError.httpStatus], ['unavailable', 503]);
      }
      // A domain's "failed" answer keeps its spec message, and says 503 when the database was away
      // (also behind a service's 503), 500 otherwise.
      const message = 'There was a problem updating your account. Try again.';
      for (const cause of [failure, new AppError('unavailable', 'Hmm, there was a problem.')]) {
        const failed = failedBecauseOf(message, cause);
        assert.deepEqual(
          [failed.code, failed.httpStatus, failed.message],
          ['unavailable', 503, message],
        );
      }
      assert.deepEqual(
        [
          failedBecauseOf(message, new Error('boom')).httpStatus,
          failedBecauseOf(message, new Error('boom')).message,
        ],
        [500, message],
      );
      assert.equal(isDatabaseUnavailable(new Error('terminating connection')), false);
      assert.equal(toAppError(new Error('boom')).httpStatus, 500);
      // The pool answers again with a new connection.
      assert.equal((await pool.query('SELECT 1 AS one')).rows[0].one, 1);
    } finally {
      await admin.end();
      await pool.end();
      await dropDatabase(url);
    }
  });

  test('when every pooled connection is busy and a transaction cannot start within its maxWait, then the error is a 503 unavailable, not a 500', async () => {
    // Arrange: a pool of one connection, held
    const stack = await resolveTestStack();
    const url = stack.databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
    await createDatabaseIfMissing(url);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on('error', () => undefined);
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const held = await pool.connect();
    try {
      // Act
      const failure = await prisma
        .$transaction(async (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 200 })
        .then(
          () => undefined,
          (error: unknown) => error,
        );

      // Assert
      assert.ok(failure, 'the transaction could not start');
      assert.ok(isDatabaseUnavailable(failure), String(failure));
      assert.deepEqual(
        [toAppError(failure).code, toAppError(failure).httpStatus],
        ['unavailable', 503],
      );
      assert.equal(
        isDatabaseUnavailable(Object.assign(new Error('P2028 without Prisma'), { code: 'P2028' })),
        false,
        'only a Prisma error carries the code',
      );
    } finally {
      held.release();
      await prisma.$disconnect();
      await pool.end();
      await dropDatabase(url);
    }
  });
});
