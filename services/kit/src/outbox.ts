/**
 * The transactional outbox (docs/architecture.md "Events"). A service writes its
 * change and an outbox row (built with {@link newOutboxMessage}) in one
 * database transaction; the relay here publishes pending rows to Kafka with
 * an idempotent producer and moves each row `pending → published`, or to
 * `failed` with its attempts counted and a later next attempt (backoff).
 * Kafka being down means events wait, never that they vanish. Published
 * rows are kept for a retention period (default 1 h, for inspection) and
 * then deleted in bounded batches, so the table and the claim query stay
 * small however many changes a service has made.
 *
 * Each row keeps the trace context of the request or message that wrote it
 * (columns `traceparent`, `tracestate`, ./tracing), and the relay sends it on
 * in the Kafka message's headers, so the consumer continues that trace.
 *
 * The relay knows nothing of Prisma models: it works on any table with the
 * outbox layout (see services/* /prisma/migrations/*_outbox) through a pg
 * pool, which the service shares with its Prisma adapter.
 */
import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@raly/contracts/events';
import type { Producer } from 'kafkajs';
import type { Pool, PoolClient } from 'pg';
import { handleError } from './errors';
import { allReplicas, createIdempotentProducer, createKafka, type KafkaConnection } from './kafka';
import type { Logger } from './logger';
import { outboxRowTrace, startRowSend, tracingOff, type Tracing } from './tracing';

/** The columns a service writes when it records an event (Prisma: `tx.outboxMessage.create({ data })`). */
export interface NewOutboxMessage<T> {
  id: string;
  topic: string;
  key: string;
  eventType: EventType;
  envelope: Envelope<T>;
  /** W3C trace context of the write (./tracing); absent when no traced request or message is in progress. */
  traceparent?: string;
  tracestate?: string;
}

/**
 * Builds the outbox row of one integration event.
 * @param event topic, event type, source (service name), subject (aggregate
 *   id, also the Kafka key), the aggregate's version after the change and
 *   the whole snapshot as data
 * @returns the row to insert in the same transaction as the change, with the
 *   trace context of the write when one is active (./tracing {@link outboxRowTrace})
 */
export function newOutboxMessage<T>(event: {
  topic: string;
  type: EventType;
  source: string;
  subject: string;
  version: number;
  data: T;
}): NewOutboxMessage<T> {
  const id = randomUUID();
  return {
    id,
    topic: event.topic,
    key: event.subject,
    eventType: event.type,
    ...outboxRowTrace({ topic: event.topic, eventType: event.type, id }),
    envelope: {
      id,
      type: event.type,
      source: event.source,
      subject: event.subject,
      time: new Date().toISOString(),
      version: event.version,
      data: event.data,
    },
  };
}

/**
 * The outbox row of an event carrying a record's whole snapshot (event-carried
 * state transfer), validated on the way out so no consumer ever receives a
 * snapshot it cannot parse.
 * @param event topic, type, source, the record's schema and the record (its
 *   `id` is the subject and Kafka key, its `version` the envelope's version)
 * @returns the row to insert (Prisma: `tx.outboxMessage.create({ data })`)
 * @throws ZodError when the record does not match its schema
 */
export function newSnapshotOutboxMessage<T extends { id: string; version: number }>(event: {
  topic: string;
  type: EventType;
  source: string;
  schema: { parse(value: unknown): T };
  record: T;
}): NewOutboxMessage<T> & { envelope: object } {
  const message = newOutboxMessage({
    topic: event.topic,
    type: event.type,
    source: event.source,
    subject: event.record.id,
    version: event.record.version,
    data: event.schema.parse(event.record),
  });
  return { ...message, envelope: message.envelope as Envelope<T> & object };
}

/** An outbox row as a repository inserts it (Prisma: `tx.outboxMessage.create({ data })`). */
export type OutboxRow = NewOutboxMessage<unknown> & { envelope: object };

/**
 * The integration event a change raises, as a domain function hands it to a
 * repository (`repository.updateWithEvent(id, changes, userUpdatedEvent)`):
 * the domain decides which event, the repository calls it with the snapshot
 * its write produced (so the event carries the version the database
 * assigned) and inserts the row in the same transaction.
 */
export type RaiseEvent<Snapshot> = (snapshot: Snapshot) => OutboxRow;

/**
 * The snapshot events of one aggregate's stream, one builder per event type:
 * `const userEvent = snapshotEventOf({ topic, source, schema })`, then
 * `export const userUpdatedEvent = userEvent(eventTypes.userUpdated)`.
 * @param stream topic, source (service name) and the record's schema
 * @returns for an event type, the {@link RaiseEvent} that builds its row
 *   with {@link newSnapshotOutboxMessage}
 */
export function snapshotEventOf<T extends { id: string; version: number }>(stream: {
  topic: string;
  source: string;
  schema: { parse(value: unknown): T };
}): (type: EventType) => RaiseEvent<T> {
  return (type) => (record) => newSnapshotOutboxMessage({ ...stream, type, record });
}

/** A row claimed for publishing. */
export interface ClaimedOutboxRow {
  id: string;
  topic: string;
  key: string;
  eventType: string;
  envelope: unknown;
  attempts: number;
  /** The trace context the row kept (null: written outside a trace). */
  traceparent: string | null;
  tracestate: string | null;
}

/** Rows claimed by one relay, locked against other replicas until the claim ends. */
export interface OutboxClaim {
  rows: ClaimedOutboxRow[];
  markPublished(ids: string[]): Promise<void>;
  markFailed(
    failures: { id: string; attempts: number; nextAttemptAt: Date; error: string }[],
  ): Promise<void>;
}

/** Where the relay finds pending rows: a way to claim them and mark the outcome. */
export interface OutboxStore {
  /**
   * Claims up to `limit` due rows (`FOR UPDATE SKIP LOCKED`, oldest first)
   * and keeps them locked while `work` runs; the marks commit together.
   * @returns what `work` returned
   */
  withClaim<T>(limit: number, work: (claim: OutboxClaim) => Promise<T>): Promise<T>;
  /**
   * Deletes up to `limit` rows published more than `retentionMs` ago, oldest first.
   * @returns how many rows were deleted
   */
  prunePublished(retentionMs: number, limit: number): Promise<number>;
}

/**
 * Runs `work` in one transaction on one pooled connection: COMMIT when it
 * resolves, ROLLBACK when it throws (for SQL written by hand, e.g. the outbox
 * claim and services/offers' repositories).
 * @returns what `work` returned
 * @throws what `work` or the database threw
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * An {@link OutboxStore} over a Postgres table with the outbox layout.
 * @param pool the service's pg pool
 * @param table table name, default `outbox`
 */
export function postgresOutboxStore(pool: Pool, table = 'outbox'): OutboxStore {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  return {
    async withClaim(limit, work) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<ClaimedOutboxRow>(
          `SELECT id, topic, key, event_type AS "eventType", envelope, attempts, traceparent, tracestate
             FROM ${quoted}
            WHERE status IN ('pending', 'failed') AND next_attempt_at <= now()
            ORDER BY sequence
            LIMIT $1
              FOR UPDATE SKIP LOCKED`,
          [limit],
        );
        return work(claimOf(client, quoted, rows));
      });
    },
    async prunePublished(retentionMs, limit) {
      // Served by the partial index on published_at WHERE status = 'published'.
      const { rowCount } = await pool.query(
        `DELETE FROM ${quoted}
          WHERE id IN (SELECT id FROM ${quoted}
                        WHERE status = 'published'
                          AND published_at < now() - make_interval(secs => $1::double precision / 1000)
                        ORDER BY published_at
                        LIMIT $2)`,
        [retentionMs, limit],
      );
      return rowCount ?? 0;
    },
  };
}

/** What waits in an outbox: due or retried rows and how long the oldest has waited. */
export interface OutboxBacklog {
  /** Rows `pending` or `failed` (to be retried). */
  pending: number;
  /** Seconds since the oldest of them was written; 0 when none. */
  oldestPendingAgeSeconds: number;
}

/**
 * Reads an outbox's backlog (the metrics' `raly_outbox_pending` and
 * `raly_outbox_oldest_pending_age_seconds`, read at scrape time).
 * @param pool the service's pg pool
 * @param table table name, default `outbox`
 * @throws what the query throws (database down)
 */
export async function readOutboxBacklog(pool: Pool, table = 'outbox'): Promise<OutboxBacklog> {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  const { rows } = await pool.query<{ pending: number; age: number | null }>(
    `SELECT count(*)::int AS pending,
            EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
       FROM ${quoted}
      WHERE status IN ('pending', 'failed')`,
  );
  return {
    pending: rows[0]?.pending ?? 0,
    oldestPendingAgeSeconds: Math.max(0, rows[0]?.age ?? 0),
  };
}

function claimOf(client: PoolClient, quoted: string, rows: ClaimedOutboxRow[]): OutboxClaim {
  return {
    rows,
    async markPublished(ids) {
      if (ids.length === 0) return;
      await client.query(
        `UPDATE ${quoted} SET status = 'published', published_at = now(), last_error = NULL
          WHERE id = ANY($1::uuid[])`,
        [ids],
      );
    },
    async markFailed(failures) {
      for (const failure of failures) {
        await client.query(
          `UPDATE ${quoted} SET status = 'failed', attempts = $2, next_attempt_at = $3, last_error = $4
            WHERE id = $1`,
          [failure.id, failure.attempts, failure.nextAttemptAt, failure.error],
        );
      }
    },
  };
}

export interface OutboxRelayOptions {
  store: OutboxStore;
  /** An idempotent producer (see `createIdempotentProducer`); the relay connects it. */
  producer: Producer;
  /**
   * Makes a fresh idempotent producer, used in place of one whose idempotence state Kafka no longer
   * accepts (see {@link isProducerStateLost}); without it the relay keeps its one producer.
   */
  newProducer?: () => Producer;
  logger: Logger;
  /** How often to look for pending rows, in ms; default 200. */
  pollIntervalMs?: number;
  /** Rows per claim; default 100. */
  batchSize?: number;
  /** Delay before attempt `attempts + 1`, in ms; default 0.5 s doubling, at most 30 s. */
  backoffMs?: (attempts: number) => number;
  /** How long a published row is kept before it is deleted, in ms; default 3,600,000 (1 h). */
  retentionMs?: number;
  /** How often to delete expired published rows, in ms; default 60,000. */
  pruneIntervalMs?: number;
  /** Rows deleted per statement; default 1,000 (at most 10 statements a pass). */
  pruneBatchSize?: number;
  /** How long `stop()` keeps publishing due rows, in ms; default 5,000. */
  flushTimeoutMs?: number;
  /** The app's tracing: a `send <topic>` span per row when on; default off (./tracing). */
  tracing?: Tracing;
}

/** A running relay. */
export interface OutboxRelay {
  /** Starts polling (returns at once; Kafka may still be down). */
  start(): void;
  /** Publishes now instead of at the next poll: call it after committing a change. */
  wake(): void;
  /**
   * Stops polling, waits for the batch in flight, then flushes: publishes
   * what is due (the rows of the last requests) until none is left or
   * `flushTimeoutMs` passed (Kafka down: the rows wait for the next start),
   * and disconnects the producer.
   */
  stop(): Promise<void>;
}

const defaultBackoffMs = (attempts: number) =>
  Math.min(30_000, 500 * 2 ** Math.max(0, attempts - 1));

/**
 * Creates the outbox relay of one service.
 * @returns the relay; nothing happens before `start()`
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, logger, pollIntervalMs = 200, batchSize = 100 } = options;
  let producer = options.producer;
  /** Set when a send failed because the producer's idempotence state was lost: replaced before the next claim. */
  let producerStateLost = false;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const { retentionMs = 3_600_000, pruneIntervalMs = 60_000, pruneBatchSize = 1_000 } = options;
  const tracing = options.tracing ?? tracingOff;
  let lastPruneAt = 0;
  let running = false;
  let connected = false;
  let woken = false;
  let interruptSleep: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  async function publishClaimed(claim: OutboxClaim): Promise<number> {
    const publishedIds: string[] = [];
    const failures: Parameters<OutboxClaim['markFailed']>[0] = [];
    for (const [topic, rows] of groupByTopic(claim.rows)) {
      // Each message carries its row's trace context, continued by a send span when tracing is on.
      const sends = rows.map((row) => startRowSend(tracing, topic, row));
      try {
        await producer.send({
          topic,
          // acks=all: a row is marked published only once every in-sync replica has the message.
          acks: allReplicas,
          messages: rows.map((row, index) => ({
            key: row.key,
            value: JSON.stringify(row.envelope),
            headers: { 'event-type': row.eventType, ...sends[index]!.headers },
          })),
        });
        for (const send of sends) send.end();
        publishedIds.push(...rows.map((row) => row.id));
      } catch (error) {
        for (const send of sends) send.end(error);
        logger.warn({ err: error, topic, count: rows.length }, 'outbox publish failed; will retry');
        if (isProducerStateLost(error)) producerStateLost = true;
        for (const row of rows) {
          const attempts = row.attempts + 1;
          failures.push({
            id: row.id,
            attempts,
            nextAttemptAt: new Date(Date.now() + backoffMs(attempts)),
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
    await claim.markPublished(publishedIds);
    await claim.markFailed(failures);
    return claim.rows.length;
  }

  async function relayOnce(): Promise<number> {
    if (producerStateLost && options.newProducer) {
      // After a broker failover Kafka may refuse the producer's sequence numbers for good (kafkajs
      // does not reset them): a new producer gets a new producer id, and the failed rows go again.
      producerStateLost = false;
      logger.warn('outbox: the producer lost its idempotence state; replacing it');
      const old = producer;
      producer = options.newProducer();
      connected = false;
      await old.disconnect().catch(() => undefined);
    }
    if (!connected) {
      await producer.connect();
      connected = true;
    }
    return store.withClaim(batchSize, publishClaimed);
  }

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        interruptSleep = undefined;
        woken = false;
        resolve();
      }
      interruptSleep = done;
    });
  }

  /** Deletes expired published rows, at most 10 batches a pass so publishing never waits long. */
  async function pruneIfDue(): Promise<void> {
    if (Date.now() - lastPruneAt < pruneIntervalMs) return;
    lastPruneAt = Date.now();
    let deleted = 0;
    for (let batch = 0; batch < 10 && running; batch += 1) {
      const count = await store.prunePublished(retentionMs, pruneBatchSize);
      deleted += count;
      if (count < pruneBatchSize) break;
    }
    if (deleted > 0) logger.debug({ deleted }, 'outbox: deleted published rows past retention');
  }

  /** Publishes due rows until a pass finds fewer than a batch, or `deadline` (ms since epoch). */
  async function flush(deadline: number): Promise<void> {
    if (!loop) return;
    try {
      while ((await relayOnce()) >= batchSize && Date.now() < deadline);
    } catch (error) {
      handleError(error, logger, { component: 'outbox-relay', phase: 'flush' });
    }
  }

  async function run(): Promise<void> {
    while (running) {
      let claimed = 0;
      try {
        claimed = await relayOnce();
        await pruneIfDue();
      } catch (error) {
        handleError(error, logger, { component: 'outbox-relay' });
      }
      if (running && claimed < batchSize) await sleep(pollIntervalMs);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake() {
      woken = true;
      interruptSleep?.();
    },
    async stop() {
      running = false;
      interruptSleep?.();
      await loop;
      await flush(Date.now() + (options.flushTimeoutMs ?? 5_000));
      if (connected) await producer.disconnect();
      connected = false;
    },
  };
}

/** Kafka's answers that mean the idempotent producer's state (producer id, epoch, sequences) is lost. */
const producerStateErrors = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
]);

/**
 * Whether a send error (or an error it wraps: `cause`, kafkajs' `originalError`, an
 * aggregate's `errors`) is one after which only a new producer can send again.
 */
export function isProducerStateLost(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const candidate = error as {
    type?: unknown;
    cause?: unknown;
    originalError?: unknown;
    errors?: unknown;
  };
  if (typeof candidate.type === 'string' && producerStateErrors.has(candidate.type)) return true;
  const inner = [
    candidate.cause,
    candidate.originalError,
    ...(Array.isArray(candidate.errors) ? (candidate.errors as unknown[]) : []),
  ];
  return inner.some((nested) => isProducerStateLost(nested, depth + 1));
}

function groupByTopic(rows: ClaimedOutboxRow[]): Map<string, ClaimedOutboxRow[]> {
  const byTopic = new Map<string, ClaimedOutboxRow[]>();
  for (const row of rows) {
    const list = byTopic.get(row.topic) ?? [];
    list.push(row);
    byTopic.set(row.topic, list);
  }
  return byTopic;
}

/**
 * The usual wiring: an idempotent producer on `brokers` relaying the
 * `outbox` table reached through `pool`, already started.
 * @param clientId Kafka client id, e.g. the service name
 * @param connection TLS and SASL; default `kafkaConnectionFromEnv()` of `process.env` (./kafka)
 * @param tracing the service's tracing (send spans); default off
 */
export function startPostgresOutboxRelay(
  pool: Pool,
  brokers: string[],
  clientId: string,
  logger: Logger,
  connection?: KafkaConnection,
  tracing?: Tracing,
): OutboxRelay {
  const kafka = createKafka(brokers, clientId, logger, connection);
  const relay = createOutboxRelay({
    store: postgresOutboxStore(pool),
    producer: createIdempotentProducer(kafka),
    newProducer: () => createIdempotentProducer(kafka),
    logger,
    tracing,
  });
  relay.start();
  return relay;
}
