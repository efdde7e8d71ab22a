/**
 * The plain-SQL event writer (../src/outbox/pg-writer): the change and its
 * events commit together, after which the relay is woken; BEGIN travels with
 * a first statement without parameters and the events' INSERT with the
 * COMMIT; a failing work writes nothing; a value Postgres refuses is a 400.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import pg from 'pg';
import { dropDatabase, resolveTestStack, uniqueToken } from '@raly/test-stack';
import { AppError } from '../src/errors';
import { migrate } from '../src/migrate';
import { createPgEventWriter, newOutboxMessage, type PgEventWriter } from '../src/outbox/index';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'migrations');
let databaseUrl: string;
let pool: pg.Pool;
/** Every round trip sent on `pool`, in order (its SQL text, whitespace collapsed). */
const sent: string[] = [];
/** When the relay was woken: how many widgets and outbox rows the database held for the test's key then. */
const wakes: { widgets: number; rows: number }[] = [];
let watchedKey = '';
let events: PgEventWriter;

beforeAll(async () => {
  databaseUrl = (await resolveTestStack()).databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
  await migrate(databaseUrl, fixtures);
  pool = new pg.Pool({ connectionString: databaseUrl });
  pool.on('error', () => undefined); // teardown's forced drop may end an idle connection
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text: string }).text;
      sent.push(text.replace(/\s+/g, ' ').trim());
      return query(...args);
    }) as typeof client.query;
  });
  events = createPgEventWriter({
    pool,
    relay: {
      // The relay is told after the commit: a wake that sees the committed change proves it.
      wake: () => void countCommitted(watchedKey).then((count) => wakes.push(count)),
    },
  });
});

afterAll(async () => {
  await pool.end();
  await dropDatabase(databaseUrl);
});

/** The committed widgets and outbox rows of one key, read on another connection. */
async function countCommitted(key: string): Promise<{ widgets: number; rows: number }> {
  const { rows } = await pool.query<{ widgets: number; rows: number }>(
    `SELECT (SELECT count(*)::int FROM widgets WHERE id = $1) AS widgets,
            (SELECT count(*)::int FROM outbox WHERE key = $1) AS rows`,
    [key],
  );
  return rows[0] ?? { widgets: 0, rows: 0 };
}

const widgetEvent = (id: string, version: number, name = `widget ${version}`) =>
  newOutboxMessage({
    topic: 'raly-kit-test.widgets',
    type: eventTypes.userUpdated,
    source: 'raly/kit-test',
    subject: id,
    version,
    data: { name },
  });

async function waitForWakes(count: number): Promise<void> {
  for (let waited = 0; wakes.length < count && waited < 5_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('plain-SQL event writer', () => {
  test('when a change records two events, then BEGIN goes with the first statement, the events with the COMMIT, and the relay is woken after it', async () => {
    // Arrange
    const id = (watchedKey = uniqueToken());
    wakes.length = 0;
    const name = `it's "quoted" \\ and ; COMMIT`;

    // Act
    sent.length = 0;
    const written = await events.transaction(async (tx, record) => {
      await tx.query(`SELECT 1 FROM widgets WHERE id = 'none'`);
      const { rows } = await tx.query<{ id: string }>(
        'INSERT INTO widgets (id, name) VALUES ($1, $2) RETURNING id',
        [id, name],
      );
      record(widgetEvent(id, 1, name), widgetEvent(id, 2, name));
      return rows[0]!.id;
    });

    // Assert
    assert.equal(written, id);
    assert.equal(sent.length, 3, JSON.stringify(sent));
    assert.match(sent[0]!, /^BEGIN; SELECT 1 FROM widgets/);
    assert.match(sent[1]!, /^INSERT INTO widgets/);
    assert.match(sent[2]!, /^INSERT INTO "outbox" .*; COMMIT$/);
    await waitForWakes(1);
    assert.deepEqual(wakes, [{ widgets: 1, rows: 2 }]);
    const { rows } = await pool.query<{ envelope: { version: number; data: { name: string } } }>(
      'SELECT envelope FROM outbox WHERE key = $1 ORDER BY sequence',
      [id],
    );
    assert.deepEqual(
      rows.map((row) => [row.envelope.version, row.envelope.data.name]),
      [
        [1, name],
        [2, name],
      ],
    );
  });

  test('when the work throws after writing, then nothing is committed and the relay is not woken', async () => {
    // Arrange
    const id = (watchedKey = uniqueToken());
    wakes.length = 0;

    // Act
    const failed = events.transaction(async (tx, record) => {
      await tx.query('INSERT INTO widgets (id, name) VALUES ($1, $2)', [id, 'widget 1']);
      record(widgetEvent(id, 1));
      throw new Error('refused');
    });

    // Assert
    await assert.rejects(failed, /refused/);
    assert.deepEqual(await countCommitted(id), { widgets: 0, rows: 0 });
    assert.deepEqual(wakes, []);
  });

  test('when an event holds a value Postgres refuses, then the transaction answers invalid-argument and nothing is committed', async () => {
    // Arrange
    const id = (watchedKey = uniqueToken());
    wakes.length = 0;

    // Act
    const failed = events.transaction(async (tx, record) => {
      await tx.query('INSERT INTO widgets (id, name) VALUES ($1, $2)', [id, 'widget 1']);
      // jsonb refuses the NUL character (SQLSTATE 22P05).
      record(widgetEvent(id, 1, 'nul \u0000 here'));
    });

    // Assert
    await assert.rejects(
      failed,
      (error) => error instanceof AppError && error.code === 'invalid-argument',
    );
    assert.deepEqual(await countCommitted(id), { widgets: 0, rows: 0 });
    assert.deepEqual(wakes, []);
  });
});
