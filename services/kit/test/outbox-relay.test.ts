import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { createIdempotentProducer, createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import { migrate } from '../src/migrate';
import {
  createOutboxRelay,
  newOutboxMessage,
  postgresOutboxStore,
  type OutboxRelay,
} from '../src/outbox';
import {
  dropDatabase,
  listenToTopic,
  resolveTestStack,
  type TopicListener,
  uniqueToken,
} from '@raly/test-support';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'migrations');
const topic = `raly-kit-test.outbox.${uniqueToken()}`;
let databaseUrl: string;
let pool: pg.Pool;
let relay: OutboxRelay;
let listener: TopicListener;
let admin: ReturnType<Kafka['admin']>;

beforeAll(async () => {
  const stack = await resolveTestStack();
  databaseUrl = stack.databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
  await migrate(databaseUrl, fixtures);
  pool = new pg.Pool({ connectionString: databaseUrl });
  pool.on('error', () => undefined); // teardown's forced drop may end an idle connection
  admin = new Kafka({
    clientId: 'raly-kit-test',
    brokers: stack.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
  const logger = createLogger('kit-test', 'silent');
  relay = createOutboxRelay({
    store: postgresOutboxStore(pool),
    producer: createIdempotentProducer(createKafka(stack.kafkaBrokers, 'kit-test', logger)),
    logger,
  });
  relay.start();
  listener = await listenToTopic(stack.kafkaBrokers, topic);
});

afterAll(async () => {
  await relay.stop();
  await listener.stop();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  await pool.end();
  await dropDatabase(databaseUrl);
});

/** A widget change and its event in one transaction, committed or rolled back. */
async function changeWidget(
  widgetId: string,
  version: number,
  outcome: 'COMMIT' | 'ROLLBACK',
): Promise<string> {
  const event = newOutboxMessage({
    topic,
    type: eventTypes.userUpdated,
    source: 'raly/kit-test',
    subject: widgetId,
    version,
    data: { name: `widget ${version}` },
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO widgets (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
      [widgetId, `widget ${version}`],
    );
    await client.query(
      'INSERT INTO outbox (id, topic, key, event_type, envelope) VALUES ($1, $2, $3, $4, $5)',
      [event.id, event.topic, event.key, event.eventType, event.envelope],
    );
    await client.query(outcome);
  } finally {
    client.release();
  }
  relay.wake();
  return event.id;
}

const keyOf = (message: { key: Buffer | null }) => message.key?.toString() ?? '';
const envelopeOf = (message: { value: Buffer | null }) =>
  JSON.parse(message.value?.toString() ?? '{}') as { id: string; version: number; subject: string };

async function outboxStatus(eventId: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ status: string }>('SELECT status FROM outbox WHERE id = $1', [
    eventId,
  ]);
  return rows[0]?.status;
}

describe('outbox relay', () => {
  test('when a change commits with its event, then the event is published once, keyed by the aggregate id, and marked published', async () => {
    // Arrange
    const widgetId = uniqueToken();

    // Act
    const eventId = await changeWidget(widgetId, 1, 'COMMIT');

    // Assert
    const message = await listener.waitFor((m) => keyOf(m) === widgetId);
    assert.equal(envelopeOf(message).id, eventId);
    assert.equal(envelopeOf(message).subject, widgetId);
    assert.equal(message.headers?.['event-type']?.toString(), eventTypes.userUpdated);
    await waitUntil(async () => (await outboxStatus(eventId)) === 'published');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(listener.messages.filter((m) => keyOf(m) === widgetId).length, 1);
  });

  test('when a change rolls back, then no event is published for it', async () => {
    // Arrange
    const rolledBackId = uniqueToken();
    const committedId = uniqueToken();

    // Act
    await changeWidget(rolledBackId, 1, 'ROLLBACK');
    await changeWidget(committedId, 1, 'COMMIT');

    // Assert: the later committed event arrived, the rolled-back one never will
    await listener.waitFor((m) => keyOf(m) === committedId);
    assert.equal(listener.messages.filter((m) => keyOf(m) === rolledBackId).length, 0);
    const { rows } = await pool.query('SELECT 1 FROM outbox WHERE key = $1', [rolledBackId]);
    assert.equal(rows.length, 0);
  });

  test('when one aggregate changes several times, then its events arrive in commit order with increasing versions', async () => {
    // Arrange
    const widgetId = uniqueToken();

    // Act
    for (const version of [1, 2, 3]) await changeWidget(widgetId, version, 'COMMIT');

    // Assert
    await listener.waitFor((m) => keyOf(m) === widgetId && envelopeOf(m).version === 3);
    const versions = listener.messages
      .filter((m) => keyOf(m) === widgetId)
      .map((m) => envelopeOf(m).version);
    assert.deepEqual(versions, [1, 2, 3]);
  });

  test('when published rows are older than the retention, then the relay deletes them and keeps recent and unpublished rows', async () => {
    // Arrange: one row published 2 h ago, one published now, one pending
    const aMessage = () =>
      newOutboxMessage({
        topic,
        type: eventTypes.userUpdated,
        source: 'raly/kit-test',
        subject: uniqueToken(),
        version: 1,
        data: {},
      });
    const [oldId, recentId, pendingId] = [aMessage(), aMessage(), aMessage()];
    const insert = (row: typeof oldId, status: string, publishedAgo: string | null) =>
      pool.query(
        `INSERT INTO outbox (id, topic, key, event_type, envelope, status, published_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - $7::interval)`,
        [row.id, row.topic, row.key, row.eventType, row.envelope, status, publishedAgo],
      );
    await insert(oldId, 'published', '2 hours');
    await insert(recentId, 'published', '1 second');
    await insert(pendingId, 'pending', null);
    const stack = await resolveTestStack();
    const logger = createLogger('kit-test', 'silent');
    const pruningRelay = createOutboxRelay({
      store: postgresOutboxStore(pool),
      producer: createIdempotentProducer(createKafka(stack.kafkaBrokers, 'kit-test-prune', logger)),
      logger,
      retentionMs: 3_600_000,
      pruneIntervalMs: 50,
    });

    // Act
    pruningRelay.start();
    try {
      await waitUntil(async () => (await outboxStatus(oldId.id)) === undefined);
    } finally {
      await pruningRelay.stop();
    }

    // Assert: only the expired row is gone; the pending one was published, not deleted
    assert.equal(await outboxStatus(recentId.id), 'published');
    await waitUntil(async () => (await outboxStatus(pendingId.id)) === 'published');
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
