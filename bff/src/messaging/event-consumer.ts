/**
 * A kafkajs consumer that hands each envelope to the subscription of its
 * topic. A message that cannot be read as a valid envelope of an expected
 * type (a poison message) goes to `<topic>.dlq` with the reason in its
 * headers, and its offset is committed; a failing handler (Redis down) is
 * retried by kafkajs instead, so no event is ever silently dropped.
 */
import { deadLetterTopic, parseEnvelope, type Envelope, type EventType } from '@raly/contracts/events';
import type { Consumer, Kafka, KafkaMessage, Producer } from 'kafkajs';
import type { Logger } from '../logger';

export interface Subscription {
  topic: string;
  /** Event types this topic may carry; anything else is poison. */
  eventTypes: readonly EventType[];
  handle(envelope: Envelope): Promise<void>;
}

export interface EventConsumer {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface EventConsumerOptions {
  kafka: Kafka;
  groupId: string;
  subscriptions: readonly Subscription[];
  logger: Logger;
}

/**
 * Reads and checks one message.
 * @throws Error describing why the message is poison
 */
function readEnvelope(subscription: Subscription, message: KafkaMessage): Envelope {
  if (!message.value) throw new Error('message without a value');
  const envelope = parseEnvelope(message.value);
  if (!subscription.eventTypes.includes(envelope.type)) {
    throw new Error(`event type ${envelope.type} does not belong on ${subscription.topic}`);
  }
  const record = envelope.data as { id?: unknown; version?: unknown };
  if (record.id !== envelope.subject) throw new Error('envelope subject and record id differ');
  if (record.version !== envelope.version) throw new Error('envelope version and record version differ');
  return envelope;
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** Creates the topics the consumer reads and the dead-letter topics it writes, when missing. */
async function ensureTopics(kafka: Kafka, topicNames: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topicNames.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({ topics: missing.map((topic) => ({ topic })), waitForLeaders: true });
    }
  } finally {
    await admin.disconnect();
  }
}

/** @returns a consumer that runs until `stop()` */
export function createEventConsumer({ kafka, groupId, subscriptions, logger }: EventConsumerOptions): EventConsumer {
  const byTopic = new Map(subscriptions.map((subscription) => [subscription.topic, subscription]));
  let consumer: Consumer | undefined;
  let producer: Producer | undefined;

  const sendToDeadLetters = async (topic: string, partition: number, message: KafkaMessage, error: unknown) => {
    logger.warn({ topic, partition, offset: message.offset, reason: describe(error) }, 'poison message → DLQ');
    await producer!.send({
      topic: deadLetterTopic(topic),
      messages: [
        {
          key: message.key,
          value: message.value,
          headers: {
            ...message.headers,
            'dlq-reason': describe(error),
            'dlq-original-topic': topic,
            'dlq-original-partition': String(partition),
            'dlq-original-offset': message.offset,
          },
        },
      ],
    });
  };

  return {
    async start() {
      const topicNames = [...byTopic.keys()];
      await ensureTopics(kafka, [...topicNames, ...topicNames.map(deadLetterTopic)]);
      producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      consumer = kafka.consumer({ groupId });
      await consumer.connect();
      // A new group rebuilds the read model from the whole history.
      await consumer.subscribe({ topics: topicNames, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ topic, partition, message }) => {
          const subscription = byTopic.get(topic)!;
          let envelope: Envelope;
          try {
            envelope = readEnvelope(subscription, message);
          } catch (error) {
            await sendToDeadLetters(topic, partition, message, error);
            return;
          }
          await subscription.handle(envelope);
        },
      });
    },
    async stop() {
      await consumer?.disconnect();
      await producer?.disconnect();
      consumer = undefined;
      producer = undefined;
    },
  };
}
