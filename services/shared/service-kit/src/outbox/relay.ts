/**
 * The outbox relay: publishes pending rows to Kafka with an idempotent
 * producer (a pass's topics in one produce request) and moves each row
 * `pending → published`, or to `failed` with its
 * attempts counted and a later next attempt (backoff). Kafka being down means
 * events wait, never that they vanish. Published rows are kept for a
 * retention period (default 1 h, for inspection) and then deleted in bounded
 * batches, so the table and the claim query stay small. Each message carries
 * its row's trace context in its headers, so the consumer continues that trace.
 *
 * Rows reach it two ways. A claim (`FOR UPDATE SKIP LOCKED`) finds what is
 * due: after a wake, and at every poll. A writer of plain SQL (./pg-writer)
 * hands its committed rows over instead ({@link OutboxHandOff}): inserted with
 * a lease no claim takes, published in the order handed and marked in one
 * round trip; a row whose process ended first is claimed when its lease ends.
 */
import type { Producer } from 'kafkajs';
import type { Pool } from 'pg';
import { handleError } from '../errors';
import {
  allReplicas,
  createIdempotentProducer,
  createKafka,
  EVENT_TYPE_HEADER,
  type KafkaConnection,
} from '../kafka';
import type { Logger } from '../logger';
import { startRowSend, tracingOff, type RowSend, type Tracing } from '../tracing';
import type { OutboxHandOff } from './hand-off';
import {
  postgresOutboxStore,
  type ClaimedOutboxRow,
  type OutboxClaim,
  type OutboxStore,
} from './store';

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
  /**
   * How often to look for pending rows when not woken, in ms; default 1,000. The kit's event
   * writers wake the relay after every commit ({@link OutboxRelay.wake}), so the poll only
   * finds what no wake announced: rows of a replica that stopped before publishing them, and
   * failed rows whose next attempt is due.
   */
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
export interface OutboxRelay extends OutboxHandOff {
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

/** How many batches of handed-off rows may wait before writers wake the relay instead. */
const MAX_HANDED_OFF_BATCHES = 10;

const defaultBackoffMs = (attempts: number) =>
  Math.min(30_000, 500 * 2 ** Math.max(0, attempts - 1));

/**
 * Creates the outbox relay of one service.
 * @returns the relay; nothing happens before `start()`
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, logger, pollIntervalMs = 1_000, batchSize = 100 } = options;
  let producer = options.producer;
  /** Set when a send failed because the producer's idempotence state was lost: replaced before the next claim. */
  let producerStateLost = false;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const { retentionMs = 3_600_000, pruneIntervalMs = 60_000, pruneBatchSize = 1_000 } = options;
  const tracing = options.tracing ?? tracingOff;
  let lastPruneAt = 0;
  /** Rows handed off by writers, oldest first, not yet published. */
  const handed: ClaimedOutboxRow[] = [];
  /** Set when a handed-off publish or a pass failed: writers wake the relay until a claim publishes. */
  let handOffsFailed = false;
  /** Set by a wake (and at start): the next pass claims, whatever the poll's timer says. */
  let claimWanted = true;
  let lastClaimAt = 0;
  let running = false;
  let connected = false;
  let woken = false;
  let interruptSleep: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  /** The Kafka messages of one topic's rows, each with its row's event type and trace headers. */
  const messagesOf = (rows: ClaimedOutboxRow[], sends: RowSend[]) =>
    rows.map((row, index) => ({
      key: row.key,
      value: JSON.stringify(row.envelope),
      headers: { [EVENT_TYPE_HEADER]: row.eventType, ...sends[index]!.headers },
    }));

  /** The failure marks of rows whose send failed with `error`: attempts counted, a later retry. */
  const failuresOf = (rows: ClaimedOutboxRow[], error: unknown) =>
    rows.map((row) => {
      const attempts = row.attempts + 1;
      return {
        id: row.id,
        attempts,
        nextAttemptAt: new Date(Date.now() + backoffMs(attempts)),
        error: error instanceof Error ? error.message : String(error),
      };
    });

  /**
   * Publishes a claim's rows: every topic in one produce request (`sendBatch`,
   * acks=all), so a change that raised events on two topics costs one round
   * trip to Kafka. When that fails, each topic is sent on its own, so a topic
   * Kafka refuses holds back only its own rows, which are marked failed.
   * @returns how many rows were claimed
   */
  async function publishRows(
    rows: ClaimedOutboxRow[],
    marks: Pick<OutboxClaim, 'markPublished' | 'markFailed'>,
  ): Promise<number> {
    if (rows.length === 0) return 0;
    const claim = { rows, ...marks };
    const byTopic = [...groupByTopic(claim.rows)].map(([topic, rows]) => ({
      topic,
      rows,
      // Each message carries its row's trace context, continued by a send span when tracing is on.
      sends: rows.map((row) => startRowSend(tracing, topic, row)),
    }));
    const endSends = (sends: RowSend[], error?: unknown) => {
      for (const send of sends) send.end(error);
    };
    try {
      // acks=all: a row is marked published only once every in-sync replica has the message.
      await producer.sendBatch({
        acks: allReplicas,
        topicMessages: byTopic.map(({ topic, rows, sends }) => ({
          topic,
          messages: messagesOf(rows, sends),
        })),
      });
      for (const { sends } of byTopic) endSends(sends);
      await claim.markPublished(claim.rows.map((row) => row.id));
      return claim.rows.length;
    } catch (error) {
      if (isProducerStateLost(error)) producerStateLost = true;
      if (byTopic.length === 1 || producerStateLost) {
        logger.warn({ err: error, count: claim.rows.length }, 'outbox publish failed; will retry');
        for (const { sends } of byTopic) endSends(sends, error);
        await claim.markFailed(failuresOf(claim.rows, error));
        return claim.rows.length;
      }
    }
    const publishedIds: string[] = [];
    const failures: ReturnType<typeof failuresOf> = [];
    for (const { topic, rows, sends } of byTopic) {
      try {
        await producer.send({ topic, acks: allReplicas, messages: messagesOf(rows, sends) });
        endSends(sends);
        publishedIds.push(...rows.map((row) => row.id));
      } catch (error) {
        endSends(sends, error);
        logger.warn({ err: error, topic, count: rows.length }, 'outbox publish failed; will retry');
        if (isProducerStateLost(error)) producerStateLost = true;
        failures.push(...failuresOf(rows, error));
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
    let handled = 0;
    if (handed.length > 0) {
      const rows = handed.splice(0, batchSize);
      handled += await publishRows(rows, {
        markPublished: (ids) => store.markPublished(ids),
        markFailed: async (failures) => {
          // Retried by a claim after its backoff; until a claim publishes, writers wake instead.
          if (failures.length > 0) handOffsFailed = true;
          await store.markFailed(failures);
        },
      });
    }
    if (claimWanted || Date.now() - lastClaimAt >= pollIntervalMs) {
      claimWanted = false;
      lastClaimAt = Date.now();
      let failures = 0;
      const claimed = await store.withClaim(batchSize, (claim) =>
        publishRows(claim.rows, {
          markPublished: (ids) => claim.markPublished(ids),
          markFailed: async (failed) => {
            failures += failed.length;
            await claim.markFailed(failed);
          },
        }),
      );
      if (failures === 0) handOffsFailed = false;
      // A full batch: more may be due at once.
      if (claimed >= batchSize) claimWanted = true;
      handled += claimed;
    }
    return handled;
  }

  /** Whether a pass is due at once: rows handed off, or a claim asked for. */
  const passDue = () => handed.length > 0 || claimWanted;

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

  /**
   * Publishes the rows handed off and what a claim finds due until a pass
   * finds fewer than a batch and nothing is handed, or `deadline` (ms since epoch).
   */
  async function flush(deadline: number): Promise<void> {
    if (!loop) return;
    claimWanted = true;
    try {
      do await relayOnce();
      while (passDue() && Date.now() < deadline);
    } catch (error) {
      handleError(error, logger, { component: 'outbox-relay', phase: 'flush' });
    }
  }

  async function run(): Promise<void> {
    while (running) {
      let failed = false;
      try {
        await relayOnce();
        await pruneIfDue();
      } catch (error) {
        // Until a claim publishes again, writers leave their rows to the claims.
        failed = true;
        handOffsFailed = true;
        handleError(error, logger, { component: 'outbox-relay' });
      }
      // A failed pass (Kafka or Postgres away) waits a poll (or a wake), rows handed or not.
      if (running && (failed || !passDue()))
        await sleep(
          failed ? pollIntervalMs : Math.max(0, lastClaimAt + pollIntervalMs - Date.now()),
        );
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake() {
      claimWanted = true;
      woken = true;
      interruptSleep?.();
    },
    takesHandOffs: () =>
      running && !handOffsFailed && handed.length < MAX_HANDED_OFF_BATCHES * batchSize,
    handOff(rows) {
      for (const row of rows)
        handed.push({
          id: row.id,
          topic: row.topic,
          key: row.key,
          eventType: row.eventType,
          envelope: row.envelope,
          attempts: 0,
          traceparent: row.traceparent ?? null,
          tracestate: row.tracestate ?? null,
        });
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
