/**
 * A kit service (src/service.ts runService) against the real Postgres and
 * Kafka: its `/metrics` after traffic — request durations by
 * route pattern and status, the outbox backlog, the consumer's outcomes,
 * dead letters and lag, the default Node metrics — and its drain: readiness
 * false first, the request in flight answered, the outbox row it wrote
 * flushed to Kafka, the consumer out of its group.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { deadLetterTopic, eventTypes } from '@raly/contracts/events';
import { userRecordSchema } from '@raly/contracts/records';
import { Kafka, logLevel, type Admin, type Producer } from 'kafkajs';
import pg from 'pg';
import { pino } from 'pino';
import { on } from '../src/consumer';
import { createHttpApp, listen } from '../src/http';
import { neutralFailureMessages } from '../src/errors';
import { createLogger } from '../src/logger';
import { migrate } from '../src/migrate';
import { newOutboxMessage, type OutboxRelay } from '../src/outbox/index';
import { runService, type RunningService } from '../src/service';
import {
  anEnvelope,
  aUserRecord,
  dropDatabase,
  eventually,
  freePort,
  metricValue,
  resolveTestStack,
  scrapeMetrics,
  sleep,
  uniqueToken,
} from '@raly/test-stack';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'migrations');
/** The consumed topic, and a topic outbox rows are written to (never consumed here). */
const consumed = `raly-kit-test.observability.${uniqueToken()}`;
const published = `raly-kit-test.observability-out.${uniqueToken()}`;
const topicNames = [consumed, deadLetterTopic(consumed), published];
let databaseUrl: string;
let brokers: string[];
let admin: Admin;
let producer: Producer;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  const stack = await resolveTestStack();
  brokers = stack.kafkaBrokers;
  databaseUrl = stack.databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
  await migrate(databaseUrl, fixtures);
  const kafka = new Kafka({ clientId: 'raly-kit-test', brokers, logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  producer = kafka.producer();
  await Promise.all([admin.connect(), producer.connect()]);
  await admin.createTopics({
    topics: topicNames.map((topic) => ({ topic, numPartitions: 1 })),
    waitForLeaders: true,
  });
});

afterAll(async () => {
  await admin?.deleteTopics({ topics: topicNames }).catch(() => undefined);
  await Promise.all([admin?.disconnect(), producer?.disconnect()]);
  await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
  await dropDatabase(databaseUrl);
});

/** Writes an outbox row for `topic` as a service's transaction would. */
async function writeOutboxRow(pool: pg.Pool, topic: string): Promise<string> {
  const event = newOutboxMessage({
    topic,
    type: eventTypes.userUpdated,
    source: 'raly/kit-test',
    subject: uniqueToken(),
    version: 1,
    data: {},
  });
  await pool.query(
    'INSERT INTO outbox (id, topic, key, event_type, envelope) VALUES ($1, $2, $3, $4, $5)',
    [event.id, event.topic, event.key, event.eventType, event.envelope],
  );
  return event.id;
}

/**
 * A service on the test database: `GET /widgets/:id`, `POST /slow` (answers
 * after `slowMs`, writing an outbox row first), consuming {@link consumed}.
 */
async function startWidgets(groupId: string, slowMs = 0, kafkaBrokers = brokers) {
  const pool = new pg.Pool({ connectionString: databaseUrl });
  pool.on('error', () => undefined);
  pools.push(pool);
  const handled: string[] = [];
  let relayOf: OutboxRelay | undefined;
  const service = await runService({
    name: 'kit-observability-test',
    logger: createLogger('kit-observability-test', 'silent'),
    failureMessages: neutralFailureMessages,
    port: 0,
    kafkaBrokers,
    database: {
      pool,
      prisma: { $disconnect: async () => undefined },
      ping: async () => void (await pool.query('SELECT 1')),
      close: async () => undefined,
    },
    routes: (app, relay) => {
      relayOf = relay;
      app.get('/widgets/:id', (req, res) => {
        res.json({ data: { id: req.params.id } });
      });
      app.post('/slow', async (_req, res) => {
        await sleep(slowMs);
        const id = await writeOutboxRow(pool, published);
        relay.wake();
        res.json({ data: { id } });
      });
    },
    consumer: {
      groupId,
      subscriptions: () => [
        on(consumed, eventTypes.userUpdated, userRecordSchema, async (event) => {
          handled.push(event.subject);
        }),
      ],
    },
  });
  assert.ok(relayOf);
  return { service, pool, handled, url: `http://127.0.0.1:${service.port}` };
}

describe('a kit service', () => {
  let running: RunningService | undefined;

  test('when Kafka cannot be reached, then it starts, is ready, serves from its database and keeps its events in the outbox, and says its consumer is away', async () => {
    // Arrange: a port nothing listens on as the only broker.
    const widgets = await startWidgets(`kit-no-kafka-${uniqueToken(12)}`, 0, [
      `127.0.0.1:${await freePort()}`,
    ]);
    try {
      // Act
      const ready = await fetch(`${widgets.url}/health/ready`);
      const read = await fetch(`${widgets.url}/widgets/w1`);
      const write = await fetch(`${widgets.url}/slow`, { method: 'POST' });

      // Assert
      assert.equal(ready.status, 200);
      assert.equal(read.status, 200);
      assert.equal(write.status, 200);
      const { data } = (await write.json()) as { data: { id: string } };
      const row = await widgets.pool.query<{ published_at: Date | null }>(
        'SELECT published_at FROM outbox WHERE id = $1',
        [data.id],
      );
      assert.equal(row.rows[0]?.published_at, null, 'the event waits in the outbox');
      const { samples } = await scrapeMetrics(widgets.url);
      assert.equal(metricValue(samples, 'raly_consumer_connected'), 0);
    } finally {
      await widgets.service.stop();
    }
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
  });

  test('when it has served requests, consumed events and holds an outbox backlog, then /metrics shows each by route, topic and age', async () => {
    // Arrange
    const widgets = await startWidgets(`kit-observability-${uniqueToken(12)}`);
    running = widgets.service;
    // Two rows waiting for a retry, the older written 90 s ago: the backlog the relay cannot clear now.
    const waiting = [
      await writeOutboxRow(widgets.pool, published),
      await writeOutboxRow(widgets.pool, published),
    ];
    await widgets.pool.query(
      `UPDATE outbox SET status = 'failed', attempts = 1, next_attempt_at = now() + interval '1 hour',
              created_at = now() - interval '90 seconds'
        WHERE id = ANY($1::uuid[])`,
      [waiting],
    );
    const record = aUserRecord();

    // Act
    for (let i = 0; i < 2; i++)
      assert.equal((await fetch(`${widgets.url}/widgets/w-123`)).status, 200);
    assert.equal((await fetch(`${widgets.url}/no-such-route/4711`)).status, 404);
    await producer.send({
      topic: consumed,
      messages: [
        { key: 'poison', value: 'not json' },
        { key: record.id, value: JSON.stringify(anEnvelope(record)) },
      ],
    });
    await eventually('the event to be handled', () => widgets.handled.includes(record.id));

    // Assert
    const { samples, text } = await eventually('the dead letter to be counted', async () => {
      const scrape = await scrapeMetrics(widgets.url);
      return metricValue(scrape.samples, 'raly_consumer_dead_letters_total', {
        topic: consumed,
      }) === 1
        ? scrape
        : undefined;
    });
    const route = { method: 'GET', route: '/widgets/:id', status_code: '200' };
    assert.equal(metricValue(samples, 'http_request_duration_seconds_count', route), 2);
    assert.equal(metricValue(samples, 'http_requests_total', route), 2);
    assert.equal(
      metricValue(samples, 'http_requests_total', { route: 'unmatched', status_code: '404' }),
      1,
    );
    assert.doesNotMatch(text, /w-123|4711/, 'raw URLs never become label values');
    assert.equal(metricValue(samples, 'raly_outbox_pending'), 2);
    const age = metricValue(samples, 'raly_outbox_oldest_pending_age_seconds') ?? 0;
    assert.ok(age >= 90 && age < 300, `oldest pending age ${age} s`);
    assert.equal(
      metricValue(samples, 'raly_consumer_events_total', { topic: consumed, outcome: 'handled' }),
      1,
    );
    assert.equal(
      metricValue(samples, 'raly_consumer_events_total', {
        topic: consumed,
        outcome: 'dead_lettered',
      }),
      1,
    );
    assert.equal(metricValue(samples, 'raly_consumer_connected'), 1);
    assert.equal(metricValue(samples, 'raly_consumer_lag', { topic: consumed, partition: '0' }), 0);
    assert.ok((metricValue(samples, 'nodejs_eventloop_lag_p99_seconds') ?? -1) >= 0);
    assert.ok((metricValue(samples, 'process_resident_memory_bytes') ?? 0) > 0);
    await widgets.pool.query('DELETE FROM outbox WHERE id = ANY($1::uuid[])', [waiting]);
    await running.stop();
    running = undefined;
  });

  test('when it is stopped with a drain while a request is in flight, then readiness fails first, the request is answered, its event is flushed to Kafka and the consumer leaves its group', async () => {
    // Arrange
    const groupId = `kit-observability-${uniqueToken(12)}`;
    const widgets = await startWidgets(groupId, 1500);
    assert.equal((await fetch(`${widgets.url}/health/ready`)).status, 200);
    const inFlight = fetch(`${widgets.url}/slow`, { method: 'POST' });
    await sleep(200);

    // Act
    const stopped = widgets.service.stop({ drainDelayMs: 700, graceMs: 10_000 });

    // Assert
    const ready = await fetch(`${widgets.url}/health/ready`);
    assert.equal(ready.status, 503);
    const failures = ((await ready.json()) as { failures: Record<string, string> }).failures;
    assert.equal(failures.shutdown, 'shutting down');
    const answer = await inFlight;
    assert.equal(answer.status, 200);
    const { id } = ((await answer.json()) as { data: { id: string } }).data;
    await stopped;
    const { rows } = await widgets.pool.query<{ status: string }>(
      'SELECT status FROM outbox WHERE id = $1',
      [id],
    );
    assert.equal(rows[0]?.status, 'published', 'the relay flushed the last request’s event');
    await assert.rejects(fetch(`${widgets.url}/health/live`), 'no longer accepting connections');
    const [group] = (await admin.describeGroups([groupId])).groups;
    assert.deepEqual(group?.members, [], 'the consumer left its group');
  });
});

describe('access logs', () => {
  /** An app with `GET /things/:id` logging into memory; `accessLevel` as ACCESS_LOG_LEVEL. */
  async function loggedApp(accessLevel: string | undefined) {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const previous = process.env.ACCESS_LOG_LEVEL;
    if (accessLevel === undefined) delete process.env.ACCESS_LOG_LEVEL;
    else process.env.ACCESS_LOG_LEVEL = accessLevel;
    try {
      const app = createHttpApp({
        logger,
        routes: (express) => express.get('/things/:id', (_req, res) => void res.json({})),
      });
      return { lines, server: await listen(app, 0, '127.0.0.1') };
    } finally {
      if (previous === undefined) delete process.env.ACCESS_LOG_LEVEL;
      else process.env.ACCESS_LOG_LEVEL = previous;
    }
  }

  test('when a request is answered, then one pino-http line has method, path without query, route, status and time, and no header', async () => {
    // Arrange
    const { lines, server } = await loggedApp(undefined);

    // Act
    await fetch(`http://127.0.0.1:${server.port}/things/42?email=someone@example.com`, {
      headers: { authorization: 'Bearer secret-token', cookie: 'device=secret-cookie' },
    });
    await server.close();

    // Assert
    const access = lines.filter((line) => line.component === 'access');
    assert.equal(access.length, 1, JSON.stringify(lines));
    const line = access[0] as {
      level: number;
      req: unknown;
      res: { statusCode: number };
      route: string;
      responseTime: unknown;
    };
    assert.equal(line.level, 30, 'info by default');
    assert.deepEqual(line.req, { method: 'GET', path: '/things/42' });
    assert.equal(line.res.statusCode, 200);
    assert.equal(line.route, '/things/:id');
    assert.equal(typeof line.responseTime, 'number');
    assert.doesNotMatch(JSON.stringify(line), /secret|someone/);
  });

  test('when ACCESS_LOG_LEVEL is below the logger level, then no access line is written', async () => {
    // Arrange
    const { lines, server } = await loggedApp('debug');

    // Act
    await fetch(`http://127.0.0.1:${server.port}/things/42`);
    await server.close();

    // Assert
    assert.deepEqual(
      lines.filter((line) => line.component === 'access'),
      [],
    );
  });
});
