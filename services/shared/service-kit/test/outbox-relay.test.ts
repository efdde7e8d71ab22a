import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import {
  Kafka,
  KafkaJSAggregateError,
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSProtocolError,
  logLevel,
} from 'kafkajs';
import pg from 'pg';
import { createIdempotentProducer, createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import { migrate } from '../src/migrate';
import {
  createOutboxRelay,
  createPgEventWriter,
  newOutboxMessage,
  OUTBOX_HAND_OFF_LEASE_MS,
  postgresOutboxStore,
  type OutboxRelay,
  isProducerStateLost,
} from '../src/outbox/index';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { inConsumerSpan, startRowSend, startTracing, tracingOff } from '../src/tracing';
import {
  dropDatabase,
  listenToTopic,
  resolveTestStack,
  type TopicListener,
  uniqueToken,
} from '@raly/test-stack';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'migrations');
const topic = `raly-kit-test.outbox.${uniqueToken()}`;
let databaseUrl: string;
let pool: pg.Pool;
let relay: OutboxRelay;
let listener: TopicListener;
let admin: ReturnType<Kafka['admin']>;
/** The relay's tracing: spans of rows written in a trace go here. */
const spans = new InMemorySpanExporter();
const tracing = startTracing('kit-outbox-test', {}, spans);

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
    tracing,
  });
  relay.start();
  listener = await listenToTopic(stack.kafkaBrokers, topic);
});

afterAll(async () => {
  await relay.stop();
  await tracing.shutdown();
  await listener.stop();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  await pool.end();
  await dropDatabase(databaseUrl);
});

/** The event of version `version` of a widget, on the test's topic. */
const widgetEvent = (widgetId: string, version: number) =>
  newOutboxMessage({
    topic,
    type: eventTypes.userUpdated,
    source: 'raly/kit-test',
    subject: widgetId,
    version,
    data: { name: `widget ${version}` },
  });

/** A widget change and its event in one transaction, committed or rolled back. */
async function changeWidget(
  widgetId: string,
  version: number,
  outcome: 'COMMIT' | 'ROLLBACK',
  { traceparent }: { traceparent?: string } = {},
): Promise<string> {
  // With a traceparent, the change is written as a traced consumer would write it.
  const build = () => widgetEvent(widgetId, version);
  const event = traceparent
    ? await inConsumerSpan(
        tracing,
        { topic: 'widgets', partition: 0, offset: '0', headers: { traceparent } },
        async () => build(),
      )
    : build();
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO widgets (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
      [widgetId, `widget ${version}`],
    );
    await client.query(
      `INSERT INTO outbox (id, topic, key, event_type, envelope, traceparent, tracestate)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        event.id,
        event.topic,
        event.key,
        event.eventType,
        event.envelope,
        event.traceparent ?? null,
        event.tracestate ?? null,
      ],
    );
    await client.query(outcome);
  } finally {
    client.release();
  }
  relay.wake();
  return event.id;
}

/** The outbox row of an event of a new aggregate, version 1. */
const aMessage = () =>
  newOutboxMessage({
    topic,
    type: eventTypes.userUpdated,
    source: 'raly/kit-test',
    subject: uniqueToken(),
    version: 1,
    data: {},
  });

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
    assert.equal(message.headers?.traceparent, undefined, 'written outside a trace');
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

describe('rows handed to the relay by their writer', () => {
  /** Commits a widget change and its event through a plain-SQL writer on `handTo`. */
  const writeThrough = async (
    handTo: Parameters<typeof createPgEventWriter>[0]['relay'],
    widgetId: string,
    version: number,
  ) => {
    const event = widgetEvent(widgetId, version);
    await createPgEventWriter({ pool, relay: handTo }).transaction(async (tx, record) => {
      await tx.query(
        `INSERT INTO widgets (id, name) VALUES ('${widgetId}', 'widget ${version}')
         ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
      );
      record(event);
    });
    return event.id;
  };
  /** The row's status and how long after its insert it is due, in ms. */
  const leaseOf = async (eventId: string) =>
    (
      await pool.query<{ status: string; leaseMs: number }>(
        `SELECT status, EXTRACT(EPOCH FROM next_attempt_at - created_at)::float8 * 1000 AS "leaseMs"
           FROM outbox WHERE id = $1`,
        [eventId],
      )
    ).rows[0];

  test('when a plain-SQL writer commits events, then the relay publishes them without a claim, once each and in order, and marks them published', async () => {
    // Arrange
    const widgetId = uniqueToken();

    // Act
    const ids: string[] = [];
    for (const version of [1, 2, 3]) ids.push(await writeThrough(relay, widgetId, version));
    await listener.waitFor((m) => keyOf(m) === widgetId && envelopeOf(m).version === 3);
    await waitUntil(async () => (await outboxStatus(ids[2]!)) === 'published');

    // Assert: each row was leased to the relay (no claim could take it) and published at once
    for (const id of ids) {
      const row = await leaseOf(id);
      assert.equal(row?.status, 'published');
      assert.ok(row!.leaseMs >= OUTBOX_HAND_OFF_LEASE_MS - 1_000, JSON.stringify(row));
    }
    const versions = listener.messages
      .filter((m) => keyOf(m) === widgetId)
      .map((m) => envelopeOf(m).version);
    assert.deepEqual(versions, [1, 2, 3]);
  });

  test('when the process ends before publishing rows it was handed, then no claim takes them during their lease, and a claim publishes them once it ended', async () => {
    // Arrange: a relay that takes the hand-off and ends before publishing it
    const widgetId = uniqueToken();
    const ended = { wake: () => undefined, takesHandOffs: () => true, handOff: () => undefined };

    // Act
    const eventId = await writeThrough(ended, widgetId, 1);
    relay.wake();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const duringLease = await outboxStatus(eventId);
    await pool.query(`UPDATE outbox SET next_attempt_at = now() WHERE id = $1`, [eventId]);
    relay.wake();

    // Assert
    assert.equal(duringLease, 'pending');
    await listener.waitFor((m) => keyOf(m) === widgetId);
    await waitUntil(async () => (await outboxStatus(eventId)) === 'published');
  });
});

describe('the outbox claim', () => {
  test('when the relay claims rows, then its transaction commits without waiting for the WAL to reach the disk, and the setting ends with it', async () => {
    // Arrange: a pool whose connection the test can ask inside the claim
    const claimPool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    let claimClient: pg.PoolClient | undefined;
    const recording = {
      connect: async () => (claimClient = await claimPool.connect()),
    } as unknown as pg.Pool;
    const setting = async (client: pg.PoolClient | pg.Pool) =>
      (await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!
        .synchronous_commit;

    try {
      // Act
      const inClaim = await postgresOutboxStore(recording).withClaim(10, () =>
        setting(claimClient!),
      );
      const afterClaim = await setting(claimPool);

      // Assert
      assert.equal(inClaim, 'off');
      assert.equal(afterClaim, 'on');
    } finally {
      await claimPool.end();
    }
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('outbox trace context', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerTraceparent = `00-${traceId}-00f067aa0ba902b7-01`;

  test('when a change is written in a trace, then its row keeps the trace and the relay sends it on in the message headers, from a send span that is the child of the row’s', async () => {
    // Arrange
    const widgetId = uniqueToken();

    // Act
    const eventId = await changeWidget(widgetId, 1, 'COMMIT', { traceparent: callerTraceparent });

    // Assert: the column, the message header and the spans form one chain
    const message = await listener.waitFor((m) => keyOf(m) === widgetId);
    const { rows } = await pool.query<{ traceparent: string | null; tracestate: string | null }>(
      'SELECT traceparent, tracestate FROM outbox WHERE id = $1',
      [eventId],
    );
    const kept = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(rows[0]?.traceparent ?? '');
    assert.ok(kept, `kept traceparent: ${rows[0]?.traceparent}`);
    assert.equal(kept[1], traceId);
    assert.equal(rows[0]?.tracestate, null);
    await tracing.flush();
    const finished = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const insert = finished.find((s) => s.name === `outbox insert ${topic}`);
    const send = finished.find((s) => s.name === `send ${topic}`);
    const consume = finished.find((s) => s.name === 'process widgets');
    assert.ok(insert && send && consume, finished.map((s) => s.name).join(', '));
    assert.equal(insert.spanContext().spanId, kept[2]);
    assert.equal(insert.parentSpanContext?.spanId, consume.spanContext().spanId);
    assert.equal(send.parentSpanContext?.spanId, insert.spanContext().spanId);
    assert.equal(send.attributes['messaging.message.id'], eventId);
    assert.equal(
      message.headers?.traceparent?.toString(),
      `00-${traceId}-${send.spanContext().spanId}-01`,
    );
  });

  test('when the relay’s tracing is off, then a row’s kept trace context goes into the headers unchanged', () => {
    // Arrange
    const row = {
      id: uniqueToken(),
      eventType: eventTypes.userUpdated,
      traceparent: callerTraceparent,
      tracestate: 'raly=1',
    };

    // Act
    const send = startRowSend(tracingOff, topic, row);
    send.end();

    // Assert
    assert.deepEqual(send.headers, { traceparent: callerTraceparent, tracestate: 'raly=1' });
    assert.deepEqual(startRowSend(tracingOff, topic, { ...row, traceparent: null }).headers, {});
  });

  test('when an event is built outside any trace, then its row keeps no trace context', () => {
    // Act
    const row = aMessage();

    // Assert
    assert.equal(trace.getActiveSpan(), undefined);
    assert.equal(row.traceparent, undefined);
    assert.equal(row.tracestate, undefined);
  });
});

describe('the outbox relay after a broker failover', () => {
  test("when a send fails because Kafka no longer accepts the producer's sequence numbers, then the relay knows to replace its producer, also when the error is wrapped", () => {
    // Arrange: what kafkajs raises for Kafka's error 45 after a failover, and its wrappers.
    const outOfOrder = new KafkaJSProtocolError(
      Object.assign(new Error('The broker received an out of order sequence number'), {
        type: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
        code: 45,
        retriable: false,
      }),
    );

    // Act / Assert
    assert.equal(outOfOrder.type, 'OUT_OF_ORDER_SEQUENCE_NUMBER');
    assert.equal(isProducerStateLost(outOfOrder), true);
    assert.equal(
      isProducerStateLost(
        Object.assign(new KafkaJSNonRetriableError(outOfOrder), { cause: outOfOrder }),
      ),
      true,
    );
    assert.equal(isProducerStateLost(new KafkaJSAggregateError('send failed', [outOfOrder])), true);
    assert.equal(isProducerStateLost(new KafkaJSConnectionError('Connection error')), false);
    assert.equal(isProducerStateLost(new Error('timeout')), false);
  });
});
