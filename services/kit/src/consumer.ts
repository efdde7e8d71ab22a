/**
 * The Kafka consumer runner. A consumer declares everything it subscribes to
 * in one list, one line per event type and handler (eShop's
 * AddEventBusSubscriptions):
 *
 *     const subscriptions = [
 *       on(topics.identityUser, eventTypes.userCreated, saveUserSnapshot),
 *       on(topics.identityUser, eventTypes.userUpdated, saveUserSnapshot),
 *     ];
 *
 * Each message is parsed with the contracts' envelope schemas and handed to
 * its handler; the offset is committed only after handling. A poison message
 * (unparseable, or its handler failed `maxAttempts` times) goes to
 * `<topic>.dlq` with the reason in its headers, then its offset is
 * committed: nothing is acknowledged silently. Event types nobody
 * subscribed to are skipped and committed.
 */
import {
  deadLetterTopic,
  parseEnvelope,
  type Envelope,
  type EventType,
} from '@raly/contracts/events';
import type { Consumer, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { handleError } from './errors';
import type { Logger } from './logger';

/** Handles one event; throwing means "not handled" (retried, then dead-lettered). */
export type EventHandler<T = unknown> = (event: Envelope<T>) => Promise<void>;

/** One line of the subscription list. */
export interface Subscription {
  topic: string;
  eventType: EventType;
  handle: EventHandler;
}

/**
 * One subscription line.
 * @param topic e.g. `topics.identityUser`
 * @param eventType e.g. `eventTypes.userUpdated`
 * @param handle receives the parsed envelope (data validated by the type's schema)
 */
export function on<T = unknown>(
  topic: string,
  eventType: EventType,
  handle: EventHandler<T>,
): Subscription {
  return { topic, eventType, handle: handle as EventHandler };
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
}

/** A running consumer. */
export interface RunningConsumer {
  stop(): Promise<void>;
  /**
   * True while the consumer is in its group and fetching: false once it crashed
   * without a restart, or was stopped (readiness probes).
   */
  isRunning(): boolean;
}

/**
 * Joins the group, subscribes to every topic of the list and starts handling.
 * @returns once the consumer runs
 */
export async function runConsumer(options: ConsumerRunnerOptions): Promise<RunningConsumer> {
  const { kafka, groupId, subscriptions, logger, maxAttempts = 3, fromBeginning = true } = options;
  const consumer: Consumer = kafka.consumer({ groupId });
  const deadLetters: Producer = kafka.producer();
  await deadLetters.connect();
  await consumer.connect();
  const topicNames = [...new Set(subscriptions.map((subscription) => subscription.topic))];
  await consumer.subscribe({ topics: topicNames, fromBeginning });

  let running = true;
  consumer.on(consumer.events.CRASH, (event) => {
    // kafkajs restarts itself after a retriable crash; only a final one ends the consumer.
    if (!event.payload.restart) running = false;
  });
  consumer.on(consumer.events.STOP, () => {
    running = false;
  });
  consumer.on(consumer.events.GROUP_JOIN, () => {
    running = true;
  });

  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic, partition, message }) => {
      const poison = await handleMessage(topic, message);
      if (poison) {
        await deadLetters.send({
          topic: deadLetterTopic(topic),
          messages: [
            {
              key: message.key,
              value: message.value,
              headers: {
                ...message.headers,
                'dlq-reason': poison,
                'dlq-original-topic': topic,
                'dlq-original-partition': String(partition),
                'dlq-original-offset': message.offset,
              },
            },
          ],
        });
      }
      await consumer.commitOffsets([
        { topic, partition, offset: (BigInt(message.offset) + 1n).toString() },
      ]);
    },
  });

  /** @returns undefined when handled or skipped, else why the message is poison */
  async function handleMessage(topic: string, message: KafkaMessage): Promise<string | undefined> {
    let event: Envelope;
    try {
      event = parseEnvelope(message.value ?? '');
    } catch (error) {
      handleError(error, logger, { topic, offset: message.offset, component: 'consumer' });
      return `unparseable: ${(error as Error).message}`.slice(0, 500);
    }
    const handlers = subscriptions.filter((s) => s.topic === topic && s.eventType === event.type);
    for (const subscription of handlers) {
      const failure = await handleWithRetries(subscription.handle, event, topic);
      if (failure) return failure;
    }
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
        if (attempt >= maxAttempts)
          return `handler failed ${attempt} times: ${appError.message}`.slice(0, 500);
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  }

  return {
    isRunning: () => running,
    async stop() {
      running = false;
      await consumer.disconnect();
      await deadLetters.disconnect();
    },
  };
}
