import assert from 'node:assert/strict';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import pg from 'pg';
import { dropDatabase, resolveTestStack, uniqueToken } from '@raly/test-stack';
import { migrate } from '../src/migrate';
import { createEventWriter, newOutboxMessage, type EventWriter } from '../src/outbox/index';
import { PrismaClient } from './fixtures/generated/prisma/client';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'migrations');
let databaseUrl: string;
let pool: pg.Pool;
let prisma: PrismaClient;
/** When the relay was woken: how many widgets and outbox rows the database held for the test's key then. */
const wakes: { widgets: number; rows: number }[] = [];
let watchedKey = '';
let events: EventWriter<Parameters<Parameters<PrismaClient['$transaction']>[0]>[0]>;

beforeAll(async () => {
  databaseUrl = (await resolveTestStack()).databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
  await migrate(databaseUrl, fixtures);
  pool = new pg.Pool({ connectionString: databaseUrl });
  pool.on('error', () => undefined); // teardown's forced drop may end an idle connection
  prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  events = createEventWriter({
    prisma,
    relay: {
      // The relay is told after the commit: a wake that sees the committed change proves it.
      wake: () => void countCommitted(watchedKey).then((count) => wakes.push(count)),
    },
  });
});

afterAll(async () => {
  await prisma.$disconnect();
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

const widgetEvent = (id: string, version: number) =>
  newOutboxMessage({
    topic: 'raly-kit-test.widgets',
    type: eventTypes.userUpdated,
    source: 'raly/kit-test',
    subject: id,
    version,
    data: { name: `widget ${version}` },
  });

async function waitForWakes(count: number): Promise<void> {
  for (let waited = 0; wakes.length < count && waited < 5_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('event writer', () => {
  test('when a change records its event, then the row commits with the change and the relay is woken after the commit', async () => {
    // Arrange
    const id = (watchedKey = uniqueToken());
    wakes.length = 0;

    // Act
    const written = await events.transaction(async (tx, record) => {
      const widget = await tx.widget.create({ data: { id, name: 'widget 1' } });
      await record(widgetEvent(id, 1));
      return widget;
    });

    // Assert
    assert.equal(written.id, id);
    await waitForWakes(1);
    assert.deepEqual(wakes, [{ widgets: 1, rows: 1 }]);
    const row = await prisma.outboxMessage.findFirstOrThrow({ where: { key: id } });
    assert.equal(row.status, 'pending');
    assert.equal((row.envelope as { subject: string }).subject, id);
  });

  test('when the change fails after recording its event, then neither is written and the relay is not woken', async () => {
    // Arrange
    const id = (watchedKey = uniqueToken());
    wakes.length = 0;

    // Act
    const attempt = events.transaction(async (tx, record) => {
      await tx.widget.create({ data: { id, name: 'widget 1' } });
      await record(widgetEvent(id, 1));
      throw new Error('refused after the event');
    });

    // Assert
    await assert.rejects(attempt, /refused after the event/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(wakes.length, 0);
    assert.deepEqual(await countCommitted(id), { widgets: 0, rows: 0 });
  });

  test('when the body locks its row with a raw query and records several events, then all commit in one transaction', async () => {
    // Arrange
    const id = (watchedKey = uniqueToken());
    await prisma.widget.create({ data: { id, name: 'widget 1' } });
    wakes.length = 0;

    // Act
    await events.transaction(async (tx, record) => {
      const locked = await tx.$queryRaw<{ name: string }[]>`
        SELECT name FROM widgets WHERE id = ${id} FOR UPDATE`;
      assert.equal(locked[0]?.name, 'widget 1');
      await tx.widget.update({ where: { id }, data: { name: 'widget 2' } });
      await record(widgetEvent(id, 2), widgetEvent(id, 3));
    });

    // Assert
    await waitForWakes(1);
    assert.deepEqual(wakes, [{ widgets: 1, rows: 2 }]);
  });

  test('when the body records nothing, then the change commits and the relay is not woken', async () => {
    // Arrange
    const id = (watchedKey = uniqueToken());
    wakes.length = 0;

    // Act
    await events.transaction(async (tx, record) => {
      await tx.widget.create({ data: { id, name: 'quiet' } });
      await record();
    });

    // Assert
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(wakes.length, 0);
    assert.deepEqual(await countCommitted(id), { widgets: 1, rows: 0 });
  });
});
