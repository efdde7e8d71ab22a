/**
 * The Kafka consumer runner. An app declares everything it consumes in one
 * list, one line per event type, its payload schema and its handler
 * (eShop's AddEventBusSubscriptions):
 *
 *     on(topics.identityUser, eventTypes.userCreated, userRecordSchema, saveUserSnapshot)
 *
 * Messages come a batch (of one partition) at a time; each is parsed as an
 * envelope, its data with its line's schema. One aggregate's events (one
 * message key) are handled in offset order, up to `concurrency` aggregates at
 * once. A batch's offset is committed once every message of it was handled or
 * dead-lettered, with those of the batches handled within `commitIntervalMs`.
 * A poison message (unparseable, or its handler failed `maxAttempts` times)
 * goes to `<topic>.dlq` with the reason in its headers before that commit:
 * nothing is acknowledged silently. Event types nobody subscribed to are
 * skipped and committed, unread when the message's `event-type` header names
 * the type (the outbox relay sets it). A crash before the commit redelivers the batch:
 * handlers are idempotent (events are versioned snapshots).
 */
import { deadLetterTopic, envelopeSchema, type Envelope } from '@raly/contracts/envelope';
import type { Consumer, Kafka, KafkaMessage, Message, Producer } from 'kafkajs';
import { instrumentConsumer, noOutcomes } from './consumer-metrics';
import { handleError } from './errors';
import { allReplicas, EVENT_TYPE_HEADER } from './kafka';
import type { Logger } from './logger';
import type { AppMetrics } from './metrics';
import { inConsumerSpan, tracingOff, type Tracing } from './tracing';

/**
 * Thrown by a handler for an event that can never be handled (it contradicts
 * itself): the message is dead-lettered at once, without retries.
 */
export class PoisonEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonEventError';
  }
}

/**
 * Handles one event; throwing means "not handled" (retried, then
 * dead-lettered; a {@link PoisonEventError} is dead-lettered at once).
 */
export type EventHandler<T = unknown, Type extends string = string> = (
  event: Envelope<T, Type>,
) => Promise<void>;

/** What checks an event's data: a zod schema fits. @throws for data that does not fit */
export interface PayloadSchema<T> {
  parse(data: unknown): T;
}

/** One line of the subscription list. */
export interface Subscription {
  topic: string;
  eventType: string;
  schema: PayloadSchema<unknown>;
  handle: EventHandler;
}

/**
 * One subscription line.
 * @param topic e.g. `topics.identityUser`
 * @param eventType e.g. `eventTypes.userUpdated`
 * @param schema checks the event's `data` (e.g. `userRecordSchema`); data that does not fit is poison
 * @param handle receives the parsed envelope, its data as the schema returned it
 */
export function on<T, Type extends string>(
  topic: string,
  eventType: Type,
  schema: PayloadSchema<T>,
  handle: EventHandler<T, Type>,
): Subscription {
  return { topic, eventType, schema, handle: handle as EventHandler };
}

export interface ConsumerRunnerOptions {
  kafka: Kafka;
  groupId: string;
  subscriptions: Subscription[];
  logger: Logger;
  /** Handler attempts before the message is dead-lettered; default 3. */
  maxAttempts?: number;
  /** Where a new group starts; default true (replay the topic: events are idempotent snapshots). */
  fromBeginning?: boolean;
  /**
   * How many aggregates (message keys) of one batch are handled at once;
   * default 1. Events of one aggregate are always handled in offset order.
   */
  concurrency?: number;
  /**
   * How many partitions' batches are handled at once (kafkajs
   * `partitionsConsumedConcurrently`); default 1. One partition's batches
   * are always handled one after another.
   */
  partitionsConcurrency?: number;
  /**
   * Asked before any other work on a message (before its schemas are
   * checked): true skips the event as already applied (a projector that
   * remembers the versions it stored). Must be synchronous and cheap.
   * @param topic the message's topic
   * @param subject the envelope's `subject` (the aggregate id)
   * @param version the envelope's `version`
   */
  isApplied?: (topic: string, subject: string, version: number) => boolean;
  /**
   * Every subscribed event is a whole, versioned snapshot of its aggregate
   * (a projector's topics, docs/adr/0007): of one aggregate's events in a
   * batch only the newest is handled, and the older ones are skipped as
   * superseded (a replay of a long history does one write per aggregate and
   * batch). When the newest turns out poison, the one before it is handled,
   * and so on. Default false: every event is handled.
   */
  snapshots?: boolean;
  /**
   * Longest a handled batch's offset waits before it is committed, ms;
   * default {@link COMMIT_INTERVAL_MS}. Offsets of the batches handled within
   * it leave in one commit (a commit per batch cost Kafka and kafkajs a
   * request per event at a steady trickle). 0 commits every batch.
   */
  commitIntervalMs?: number;
  /**
   * Longest a fetch waits on the broker for new messages, ms (kafkajs
   * `maxWaitTimeInMs`); default {@link FETCH_MAX_WAIT_MS}. A fetch returns as
   * soon as a message is there, so this bounds only an idle consumer's poll
   * and how long `stop()` waits for the fetch in flight.
   */
  fetchMaxWaitMs?: number;
  /**
   * Least data a fetch waits for on the broker, bytes (kafkajs `minBytes`;
   * Kafka's `fetch.min.bytes`): a fetch returns once this much is there or
   * after `fetchMaxWaitMs`. Default 1: at once, for a consumer on the live
   * path (the BFF's projector). A consumer off it (a service's copies and
   * reactions) sets more, and fetches a batch per `fetchMaxWaitMs` at a steady
   * trickle instead of a fetch per event (each one a request Kafka and kafkajs
   * pay for).
   */
  fetchMinBytes?: number;
  /** Where the consumer's metrics go (./consumer-metrics); none when absent. */
  metrics?: AppMetrics;
  /** The app's tracing: a `process <topic>` span per message when on; default off (./tracing). */
  tracing?: Tracing;
}

/**
 * Default {@link ConsumerRunnerOptions.commitIntervalMs}: 100 ms. A consumer
 * that stops commits first; one whose partitions are assigned away (a
 * rebalance) or that crashes hands at most this much handled history to the
 * next owner to handle again, which the handlers' idempotence absorbs
 * (versioned snapshots).
 */
export const COMMIT_INTERVAL_MS = 100;

/**
 * Default {@link ConsumerRunnerOptions.fetchMaxWaitMs}: 1000 ms (kafkajs'
 * own default, 5000 ms, made every stop — a rollout's, a test's — wait up to
 * 5 s for an idle fetch to end). One empty fetch a second per idle consumer
 * costs the brokers nothing worth counting.
 */
export const FETCH_MAX_WAIT_MS = 1000;
/** The first retry of a failed offset commit waits at least this long (ms), doubling per failure. */
export const COMMIT_RETRY_MIN_MS = 250;
/** The longest wait (ms) between retries of a failed offset commit (Kafka away). */
export const COMMIT_RETRY_MAX_MS = 5_000;

export interface RunningConsumer {
  stop(): Promise<void>;
  /**
   * True while the consumer is in its group and fetching: false once it crashed
   * without a restart, or was stopped (readiness probes).
   */
  isRunning(): boolean;
}

/** What became of one message: handled (or skipped), or poison with the reason. */
type Outcome = { poison?: string };

/** One message of a batch, parsed or found poison. */
interface Item {
  message: KafkaMessage;
  /** The parsed event, when it is one to hand to handlers. */
  event?: Envelope;
  /** Why the message is poison before any handler ran. */
  poison?: string;
}

/**
 * The event type a message's `event-type` header names (the outbox relay
 * sets it on every message, ./outbox/relay), or undefined without one.
 */
function eventTypeHeaderOf(message: KafkaMessage): string | undefined {
  const header = message.headers?.[EVENT_TYPE_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  return value === undefined ? undefined : value.toString();
}

/**
 * Parses a message's value: the envelope, then its data with the schema subscribed for its type.
 * A message whose `event-type` header names a type nobody subscribed to is
 * skipped before its value is read (a consumer of one type of a busy topic
 * parses none of the others).
 * @param schemaOf the schema of an event type of the topic; none when nobody subscribed to it
 * @param isApplied see {@link ConsumerRunnerOptions.isApplied}; asked on the raw JSON first
 * @returns the envelope, or undefined when `isApplied` skips it or nobody subscribed to its type
 * @throws SyntaxError or the schema's error for a poison message
 */
function parseMessage(
  topic: string,
  message: KafkaMessage,
  schemaOf: (type: string) => PayloadSchema<unknown> | undefined,
  isApplied: ConsumerRunnerOptions['isApplied'],
): Envelope | undefined {
  const headerType = eventTypeHeaderOf(message);
  if (headerType !== undefined && !schemaOf(headerType)) return undefined;
  const { value } = message;
  const json = JSON.parse((value ?? '').toString()) as Record<string, unknown> | null;
  if (
    isApplied &&
    json &&
    typeof json.subject === 'string' &&
    typeof json.version === 'number' &&
    isApplied(topic, json.subject, json.version)
  )
    return undefined;
  const envelope = envelopeSchema.parse(json);
  const schema = schemaOf(envelope.type);
  return schema && { ...envelope, data: schema.parse(envelope.data) };
}

/**
 * Runs `work` over the groups, at most `limit` groups at once.
 * @param work handles one whole group (its items in order)
 */
async function eachGroup<T>(
  groups: T[][],
  limit: number,
  work: (group: T[]) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < groups.length) await work(groups[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, groups.length) }, worker));
}

/**
 * Joins the group, subscribes to every topic of the list and starts handling.
 * @returns once the consumer runs
 */
export async function runConsumer(options: ConsumerRunnerOptions): Promise<RunningConsumer> {
  const {
    kafka,
    groupId,
    subscriptions,
    logger,
    maxAttempts = 3,
    fromBeginning = true,
    concurrency = 1,
    partitionsConcurrency = 1,
    isApplied,
    snapshots = false,
    commitIntervalMs = COMMIT_INTERVAL_MS,
    fetchMaxWaitMs = FETCH_MAX_WAIT_MS,
    fetchMinBytes = 1,
    tracing = tracingOff,
  } = options;
  const consumer: Consumer = kafka.consumer({
    groupId,
    maxWaitTimeInMs: fetchMaxWaitMs,
    minBytes: fetchMinBytes,
  });
  const counted = options.metrics
    ? instrumentConsumer(consumer, groupId, options.metrics)
    : noOutcomes;
  const deadLetters: Producer = kafka.producer();
  const topicNames = [...new Set(subscriptions.map((subscription) => subscription.topic))];
  try {
    await deadLetters.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: topicNames, fromBeginning });
  } catch (error) {
    // Kafka unreachable: nothing half-open is left behind (the caller may try again).
    await Promise.allSettled([consumer.disconnect(), deadLetters.disconnect()]);
    throw error;
  }
  /** The handlers of each `topic event-type`, and the schema of its first line. */
  const handlersOf = new Map<string, EventHandler[]>();
  const schemas = new Map<string, PayloadSchema<unknown>>();
  for (const subscription of subscriptions) {
    const line = `${subscription.topic} ${subscription.eventType}`;
    handlersOf.set(line, [...(handlersOf.get(line) ?? []), subscription.handle]);
    if (!schemas.has(line)) schemas.set(line, subscription.schema);
  }

  /** Offsets handled and not yet committed, by `topic partition` (the next offset to read). */
  const pending = new Map<string, { topic: string; partition: number; offset: string }>();
  let commitTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  /** Disconnected: nothing is committed or scheduled any more. */
  let stopped = false;
  /** Failed commits in a row: the retry waits max(commitIntervalMs, 250 ms), doubling per failure, at most 5 s. */
  let commitFailures = 0;
  /**
   * Commits every pending offset in one request. A failed commit keeps them
   * (unless a newer offset of the partition came since) and is tried again
   * after a back-off — also when no further batch arrives, e.g. while Kafka is
   * away — with one warning per failure, not one per interval.
   */
  const commitPending = async () => {
    clearTimeout(commitTimer);
    commitTimer = undefined;
    if (pending.size === 0) return;
    const offsets = [...pending.values()];
    pending.clear();
    try {
      await consumer.commitOffsets(offsets);
      commitFailures = 0;
    } catch (error) {
      for (const entry of offsets) {
        const key = `${entry.topic} ${entry.partition}`;
        if (!pending.has(key)) pending.set(key, entry);
      }
      commitFailures += 1;
      const retryInMs = Math.min(
        Math.max(commitIntervalMs, COMMIT_RETRY_MIN_MS) * 2 ** (commitFailures - 1),
        COMMIT_RETRY_MAX_MS,
      );
      logger.warn(
        {
          component: 'consumer',
          offsets: offsets.length,
          failures: commitFailures,
          retryInMs,
          err: error,
        },
        'offset commit failed; tried again after a back-off',
      );
      if (!stopped) {
        clearTimeout(commitTimer);
        commitTimer = setTimeout(() => void commitPending(), retryInMs);
      }
    }
  };
  const scheduleCommit = () => {
    commitTimer ??= setTimeout(() => void commitPending(), commitIntervalMs);
  };

  let running = true;
  consumer.on(consumer.events.CRASH, (event) => {
    // kafkajs restarts itself after a retriable crash; only a final one ends the consumer.
    if (!event.payload.restart) running = false;
  });
  consumer.on(consumer.events.STOP, () => {
    running = false;
  });
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    running = true;
    // A partition assigned away is the new owner's to commit: its pending offset is dropped
    // (the new owner handles that history again, idempotently) rather than committed over its.
    const assigned = event.payload.memberAssignment;
    for (const [key, entry] of pending)
      if (!assigned[entry.topic]?.includes(entry.partition)) pending.delete(key);
  });

  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: partitionsConcurrency,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      const { topic, partition } = batch;
      const traced = (item: Item, work: () => Promise<string | undefined>, skipped = false) =>
        inConsumerSpan(
          tracing,
          {
            topic,
            partition,
            offset: item.message.offset,
            headers: item.message.headers,
            eventId: item.event?.id,
            eventType: item.event?.type,
            skipped: skipped || (!item.event && !item.poison),
          },
          work,
        );
      const handled = async (item: Item) => {
        const poison = await traced(item, () => handleEvent(topic, item.event!));
        outcomes.set(item, { poison });
        await heartbeat(); // Sent only when due: a slow batch keeps the group membership.
        return poison === undefined;
      };
      const schemaOf = (type: string) => schemas.get(`${topic} ${type}`);
      const items: Item[] = batch.messages.map((message) => {
        try {
          return { message, event: parseMessage(topic, message, schemaOf, isApplied) };
        } catch (error) {
          handleError(error, logger, { topic, offset: message.offset, component: 'consumer' });
          return { message, poison: `unparseable: ${(error as Error).message}`.slice(0, 500) };
        }
      });
      // One group per aggregate, in offset order; poison found while parsing needs no handler.
      const byAggregate = new Map<string, Item[]>();
      const outcomes = new Map<Item, Outcome>();
      for (const item of items) {
        if (item.poison) outcomes.set(item, { poison: item.poison });
        if (!item.event) {
          // Poison, or already applied within a trace: its span (when tracing) says so and ends at
          // once. A skipped message of no trace (a replay of old events) makes no span.
          if (tracing.enabled && (item.poison || item.message.headers?.traceparent))
            await traced(item, async () => item.poison);
        } else {
          const group = byAggregate.get(item.event.subject);
          if (group) group.push(item);
          else byAggregate.set(item.event.subject, [item]);
        }
      }
      await eachGroup([...byAggregate.values()], concurrency, async (group) => {
        if (!snapshots) {
          for (const item of group) await handled(item);
          return;
        }
        // Newest first; the older snapshots of the aggregate are superseded by the first handled.
        let newest = group.length - 1;
        while (newest >= 0 && !(await handled(group[newest]!))) newest -= 1;
        for (const item of group.slice(0, Math.max(0, newest))) {
          counted.superseded(topic);
          if (tracing.enabled && item.message.headers?.traceparent)
            await traced(item, async () => undefined, true);
        }
      });
      if (!isRunning() || isStale()) return; // Rebalanced away: the new owner handles the batch again.

      const poison: Message[] = [];
      for (const item of items) {
        const reason = outcomes.get(item)?.poison;
        if (reason) poison.push(deadLetter(topic, partition, item.message, reason));
      }
      if (poison.length > 0) {
        // acks=all (-1): written once every in-sync replica has it (min.insync.replicas 2 in the scaled topology).
        await deadLetters.send({
          topic: deadLetterTopic(topic),
          messages: poison,
          acks: allReplicas,
        });
        counted.deadLettered(topic, poison.length);
      }
      const last = batch.messages.at(-1);
      if (last) {
        resolveOffset(last.offset);
        const offset = (BigInt(last.offset) + 1n).toString();
        pending.set(`${topic} ${partition}`, { topic, partition, offset });
        // Stopping: committed before kafkajs leaves the group (it waits for this batch).
        if (stopping || commitIntervalMs <= 0) await commitPending();
        else scheduleCommit();
      }
      await heartbeat();
    },
  });

  /** @returns undefined when handled, else why the event is poison */
  async function handleEvent(topic: string, event: Envelope): Promise<string | undefined> {
    for (const handle of handlersOf.get(`${topic} ${event.type}`) ?? []) {
      const failure = await handleWithRetries(handle, event, topic);
      if (failure) return failure;
    }
    counted.handled(topic);
    return undefined;
  }

  async function handleWithRetries(handle: EventHandler, event: Envelope, topic: string) {
    for (let attempt = 1; ; attempt++) {
      try {
        await handle(event);
        return undefined;
      } catch (error) {
        const appError = handleError(error, logger, {
          topic,
          eventId: event.id,
          attempt,
          component: 'consumer',
        });
        if (error instanceof PoisonEventError)
          return `poison event: ${error.message}`.slice(0, 500);
        if (attempt >= maxAttempts)
          return `handler failed ${attempt} times: ${appError.message}`.slice(0, 500);
        counted.retried(topic);
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  }

  return {
    isRunning: () => running,
    async stop() {
      running = false;
      stopping = true;
      await commitPending();
      await consumer.disconnect();
      stopped = true;
      clearTimeout(commitTimer);
      await deadLetters.disconnect();
    },
  };
}

/** The dead-letter copy of a message: its key, value and headers, and why and whence in `dlq-*` headers. */
function deadLetter(
  topic: string,
  partition: number,
  message: KafkaMessage,
  reason: string,
): Message {
  return {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      'dlq-reason': reason,
      'dlq-original-topic': topic,
      'dlq-original-partition': String(partition),
      'dlq-original-offset': message.offset,
    },
  };
}
