/**
 * What a service's Prisma client (the kit's ./src/database.ts pool and
 * `@prisma/adapter-pg`, the kit's event writer) throws when Postgres is away
 * for the moment (a connection ended by `pg_terminate_backend`, a database
 * that cannot be reached, no connection free in time), as each shape really
 * comes out of a real Postgres, and how ./src/errors.ts classifies it: a 503
 * `unavailable`, while a bug, a unique violation and a value Postgres
 * refuses keep their 500, 409 (the repository's) and 400.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { eventTypes } from '@raly/contracts/events';
import { dropDatabase, resolveTestStack, uniqueToken } from '@raly/test-stack';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openDatabase, type Database } from '../src/database';
import {
  AppError,
  failedBecauseOf,
  isDatabaseUnavailable,
  toAppError,
  uniqueViolationOf,
} from '../src/errors';
import { migrate } from '../src/migrate';
import { createEventWriter, newOutboxMessage, type EventWriter } from '../src/outbox/index';
import { PrismaClient } from './fixtures/generated/prisma/client';

type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

const fixtures = path.join(import.meta.dirname, 'fixtures', 'migrations');
const failedMessage = 'There was a problem updating your account. Try again.';
let databaseUrl: string;
let database: Database<PrismaClient>;
let events: EventWriter<Transaction>;
let admin: pg.Client;
let wakes = 0;
/** Told when a connection of the kit's pool reports that it failed (Postgres ended it). */
let onConnectionFailed: (() => void) | undefined;

const openWidgets = (url: string, poolMax: number) =>
  openDatabase(url, (adapter) => new PrismaClient({ adapter }), {
    poolMax,
    onIdleError: () => undefined,
  });

beforeAll(async () => {
  databaseUrl = (await resolveTestStack()).databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
  await migrate(databaseUrl, fixtures);
  database = openWidgets(databaseUrl, 2);
  database.pool.on('connect', (client) => client.on('error', () => onConnectionFailed?.()));
  events = createEventWriter({ prisma: database.prisma, relay: { wake: () => void wakes++ } });
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await database.close();
  await dropDatabase(databaseUrl);
});

/** What tells an error apart: its class, Prisma's code, the adapter's cause kind and SQLSTATE, and the last line of its message. */
function shapeOf(error: unknown) {
  const { code, meta, message } = error as {
    code?: unknown;
    message: string;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
  };
  const cause = meta?.driverAdapterError?.cause;
  return {
    name: (error as object).constructor.name,
    code,
    kind: cause?.kind,
    originalCode: cause?.originalCode,
    message: message.trim().split('\n').at(-1),
  };
}

/** Asserts the 503 of every way an app answers it: the central handler and a domain's "failed" message. */
function assertAnsweredUnavailable(error: unknown): void {
  const shape = JSON.stringify(shapeOf(error));
  assert.ok(isDatabaseUnavailable(error), shape);
  const appError = toAppError(error);
  assert.deepEqual(
    [appError.code, appError.httpStatus, appError.isTrusted],
    ['unavailable', 503, false],
    shape,
  );
  const failed = failedBecauseOf(failedMessage, error);
  assert.deepEqual(
    [failed.code, failed.httpStatus, failed.message],
    ['unavailable', 503, failedMessage],
    shape,
  );
}

const widgetEvent = (id: string) =>
  newOutboxMessage({
    topic: 'raly-kit-test.widgets',
    type: eventTypes.userUpdated,
    source: 'raly/kit-test',
    subject: id,
    version: 1,
    data: { name: 'widget' },
  });

const committedWidgets = async (id: string) =>
  (await admin.query('SELECT 1 FROM widgets WHERE id = $1', [id])).rowCount;

/** Ends, once it shows up, the backend running a statement that contains `marker`. */
async function terminateWhenRunning(marker: string): Promise<void> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const { rowCount } = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND state = 'active' AND query LIKE $1`,
      [`%${marker}%`],
    );
    if (rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no running statement with ${marker}`);
}

describe('a connection ended by Postgres', () => {
  test('when Postgres ends the connection of an event transaction between two of its statements, then the next statement fails with pg bare "not queryable" error, nothing commits, and it is answered 503', async () => {
    // Arrange
    const id = uniqueToken();
    wakes = 0;
    const failed = new Promise<void>((resolve) => (onConnectionFailed = resolve));

    // Act
    const failure = await events
      .transaction(async (tx, record) => {
        const [{ pid }] = (await tx.$queryRaw`SELECT pg_backend_pid() AS pid`) as [{ pid: number }];
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await failed; // the connection has seen its end before the next statement
        await tx.widget.create({ data: { id, name: 'widget' } });
        await record(widgetEvent(id));
      })
      .catch((error: unknown) => error);

    // Assert
    assert.deepEqual(shapeOf(failure), {
      name: 'Error',
      code: undefined,
      kind: undefined,
      originalCode: undefined,
      message: 'Client has encountered a connection error and is not queryable',
    });
    assertAnsweredUnavailable(failure);
    assert.equal(await committedWidgets(id), 0);
    assert.equal(wakes, 0);
    await database.ping(); // the pool answers again
  });

  test('when Postgres ends the connection of a transaction just before its next statement, then that statement fails (57P01 or the bare error, as the race falls) and it is answered 503', async () => {
    // Arrange
    const id = uniqueToken();

    // Act
    const failure = await database.prisma
      .$transaction(async (tx) => {
        const [{ pid }] = (await tx.$queryRaw`SELECT pg_backend_pid() AS pid`) as [{ pid: number }];
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await tx.widget.create({ data: { id, name: 'widget' } });
      })
      .catch((error: unknown) => error);

    // Assert
    assert.ok(failure instanceof Error, String(failure));
    assertAnsweredUnavailable(failure);
    assert.equal(await committedWidgets(id), 0);
  });

  test('when Postgres ends the connection while a statement runs, in a transaction or not, then Prisma raises P2010 with SQLSTATE 57P01, answered 503', async () => {
    // Arrange
    const inTransaction = database.prisma
      .$transaction(async (tx) => tx.$queryRaw`SELECT pg_sleep(5), 'in-transaction-sleep'`)
      .catch((error: unknown) => error);
    const alone = database.prisma.$queryRaw`SELECT pg_sleep(5), 'lone-sleep'`.catch(
      (error: unknown) => error,
    );

    // Act
    await terminateWhenRunning('in-transaction-sleep');
    await terminateWhenRunning('lone-sleep');
    const failures = await Promise.all([inTransaction, alone]);

    // Assert
    for (const failure of failures) {
      assert.deepEqual(shapeOf(failure), {
        name: 'PrismaClientKnownRequestError',
        code: 'P2010',
        kind: 'postgres',
        originalCode: '57P01',
        message:
          'Raw query failed. Code: `57P01`. Message: `terminating connection due to administrator command`',
      });
      assertAnsweredUnavailable(failure);
    }
  });
});

describe('a database that cannot be reached', () => {
  test('when nothing listens at the database address, then a query and an event transaction raise P1001 DatabaseNotReachable and the probe ECONNREFUSED, all answered 503', async () => {
    // Arrange
    const unreachable = openWidgets(databaseUrl.replace(/:\d+\//, ':1/'), 2);
    const writer = createEventWriter({ prisma: unreachable.prisma, relay: { wake: () => {} } });
    try {
      // Act
      const query = await unreachable.prisma.widget.findMany().catch((error: unknown) => error);
      const transaction = await writer
        .transaction(async (tx) => tx.widget.findMany())
        .catch((error: unknown) => error);
      const probe = await unreachable.ping().catch((error: unknown) => error);

      // Assert
      for (const failure of [query, transaction]) {
        const shape = shapeOf(failure);
        assert.deepEqual(
          [shape.name, shape.code, shape.kind, shape.originalCode],
          ['PrismaClientKnownRequestError', 'P1001', 'DatabaseNotReachable', undefined],
        );
        assert.match(String(shape.message), /^Can't reach database server at .*:1$/);
        assertAnsweredUnavailable(failure);
      }
      assert.equal((probe as { code?: unknown }).code, 'ECONNREFUSED');
      assertAnsweredUnavailable(probe);
    } finally {
      await unreachable.close();
    }
  });
});

describe('no connection free in time', () => {
  test("when every pooled connection is taken, then an event transaction fails after its maxWait with Prisma's P2028, answered 503", async () => {
    // Arrange
    const busy = openWidgets(databaseUrl, 1);
    const writer = createEventWriter({ prisma: busy.prisma, relay: { wake: () => {} } });
    const held = await busy.pool.connect();
    try {
      // Act
      const failure = await writer
        .transaction(async (tx) => tx.widget.findMany(), { maxWait: 300 })
        .catch((error: unknown) => error);

      // Assert
      assert.deepEqual(shapeOf(failure), {
        name: 'PrismaClientKnownRequestError',
        code: 'P2028',
        kind: undefined,
        originalCode: undefined,
        message: 'Transaction API error: Unable to start a transaction in the given time.',
      });
      assertAnsweredUnavailable(failure);
    } finally {
      held.release();
      await busy.close();
    }
  });

  test("when a transaction outlasts its timeout, then its next statement fails with Prisma's P2028, answered 503", async () => {
    // Act
    const failure = await events
      .transaction(
        async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          return tx.widget.findMany();
        },
        { timeout: 200 },
      )
      .catch((error: unknown) => error);

    // Assert
    const shape = shapeOf(failure);
    assert.deepEqual(
      [shape.name, shape.code, shape.kind],
      ['PrismaClientKnownRequestError', 'P2028', undefined],
    );
    assert.match(
      String(shape.message),
      /^Transaction API error: A query cannot be executed on an expired transaction/,
    );
    assertAnsweredUnavailable(failure);
  });

  test("when a pool with a connection timeout has no connection free in time, then a query and a transaction fail with pg-pool's bare timeout error, answered 503", async () => {
    // Arrange: the kit sets no connection timeout; a deployment's pool may (pg's connectionTimeoutMillis).
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 1,
      connectionTimeoutMillis: 300,
    });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const held = await pool.connect();
    try {
      // Act
      const failures = [
        await prisma.widget.findMany().catch((error: unknown) => error),
        await prisma
          .$transaction(async (tx) => tx.widget.findMany())
          .catch((error: unknown) => error),
      ];

      // Assert
      for (const failure of failures) {
        assert.deepEqual(shapeOf(failure), {
          name: 'Error',
          code: undefined,
          kind: undefined,
          originalCode: undefined,
          message: 'timeout exceeded when trying to connect',
        });
        assertAnsweredUnavailable(failure);
      }
    } finally {
      held.release();
      await prisma.$disconnect();
      await pool.end();
    }
  });
});

describe('failures that are not a database away', () => {
  test('when a write breaks a unique constraint, Postgres refuses a value, a record is missing or the code has a bug, then they keep their 409 (by the repository), 400 and 500', async () => {
    // Arrange
    const id = uniqueToken();
    await database.prisma.widget.create({ data: { id, name: 'widget' } });

    // Act
    const duplicate = await events
      .transaction(async (tx) => tx.widget.create({ data: { id, name: 'again' } }))
      .catch((error: unknown) => error);
    const refusedValue = await database.prisma.widget
      .create({ data: { id: uniqueToken(), name: 'nul \u0000 byte' } })
      .catch((error: unknown) => error);
    const missing = await database.prisma.widget
      .findUniqueOrThrow({ where: { id: uniqueToken() } })
      .catch((error: unknown) => error);

    // Assert
    assert.deepEqual(
      [shapeOf(duplicate).code, shapeOf(duplicate).originalCode, uniqueViolationOf(duplicate)],
      ['P2002', '23505', { constraint: 'widgets_pkey' }],
    );
    assert.ok(refusedValue instanceof AppError);
    assert.equal(shapeOf(refusedValue.cause).originalCode, '22021');
    assert.equal(shapeOf(missing).code, 'P2025');
    const lookalikes = [
      new Error('boom'),
      new Error('boom: Connection terminated unexpectedly'),
      Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ERR_OTHER' }),
      Object.assign(new Error('no Prisma error'), { code: 'P1001' }),
    ];
    for (const error of [duplicate, refusedValue.cause, missing, ...lookalikes])
      assert.equal(isDatabaseUnavailable(error), false, JSON.stringify(shapeOf(error)));
    assert.deepEqual(
      [duplicate, refusedValue, missing, ...lookalikes].map(
        (error) => toAppError(error).httpStatus,
      ),
      [500, 400, 500, 500, 500, 500, 500],
    );
    assert.deepEqual(
      [duplicate, missing, lookalikes[0]].map(
        (error) => failedBecauseOf(failedMessage, error).httpStatus,
      ),
      [500, 500, 500],
    );
  });
});
