/** Kafka for tests: listening to a topic, producing test events, watching a consumer group's progress. */
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import { eventually } from './polling';
import { uniqueToken } from './records';

/** What a test reads from a topic: every message since it started listening, each once. */
export interface TopicListener {
  messages: KafkaMessage[];
  /**
   * Waits until a message matches.
   * @param timeoutMs default 15 000
   * @throws Error when none arrives in time
   */
  waitFor(matches: (message: KafkaMessage) => boolean, timeoutMs?: number): Promise<KafkaMessage>;
  stop(): Promise<void>;
}

const testKafka = (brokers: string[]) =>
  new Kafka({ clientId: 'raly-test', brokers, logLevel: logLevel.NOTHING });

/**
 * Listens to `topic` with a fresh consumer group, from the beginning (tests
 * pick their messages by unique keys, so this cannot miss one that raced the
 * group join).
 * @param brokers the stack's Kafka brokers
 */
export async function listenToTopic(brokers: string[], topic: string): Promise<TopicListener> {
  // maxWaitTimeInMs: an idle fetch ends soon, so stop() does not wait kafkajs' default 5 s for it.
  const consumer = testKafka(brokers).consumer({
    groupId: `raly-test-${uniqueToken(12)}`,
    maxWaitTimeInMs: 500,
  });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const joined = new Promise<void>((resolve) =>
    consumer.on(consumer.events.GROUP_JOIN, () => resolve()),
  );
  // A group that rejoins (a missed heartbeat on a busy machine) reads again from its last commit:
  // each record is kept once, by its partition and offset.
  const seen = new Set<string>();
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const position = `${partition}:${message.offset}`;
      if (seen.has(position)) return;
      seen.add(position);
      messages.push(message);
    },
  });
  await joined;
  return {
    messages,
    waitFor: (matches, timeoutMs = 15_000) =>
      eventually(`a matching message on ${topic}`, () => messages.find(matches), {
        timeoutMs,
        intervalMs: 50,
      }),
    stop: () => consumer.disconnect(),
  };
}

export interface TestKafka {
  /**
   * Publishes one message keyed by `key`.
   * @param headers Kafka headers, e.g. the `event-type` the outbox relay sets
   * @returns the partition and offset it landed at
   */
  produce(
    topic: string,
    key: string,
    value: string | Buffer,
    headers?: Record<string, string>,
  ): Promise<{ partition: number; offset: string }>;
  /** Resolves once `groupId` has committed past `offset` on the partition (i.e. handled the message). */
  waitUntilCommitted(
    groupId: string,
    topic: string,
    position: { partition: number; offset: string },
  ): Promise<void>;
  /**
   * Resolves once `groupId` has committed every partition of `topics` up to
   * the end it had when called: a new group that replays from the beginning
   * has replayed what was there.
   * @param timeoutMs default 60 000
   */
  waitUntilCaughtUp(groupId: string, topics: string[], timeoutMs?: number): Promise<void>;
  /** Reads `topic` from the beginning until a message with `key` appears (30 s at most). */
  findMessage(
    topic: string,
    key: string,
  ): Promise<{ value: string; headers: Record<string, string> }>;
  close(): Promise<void>;
}

/**
 * Creates the topics the running stack lacks (3 partitions, as the stack makes them), so a
 * consumer group started from the newest offset is assigned their partitions when it joins: a
 * topic auto-created later reaches a running consumer only at its next metadata refresh.
 * @param topics names, e.g. `identity.audit.v1` and its `.dlq`
 */
export async function ensureTopics(brokers: string[], topics: string[]): Promise<void> {
  const admin = testKafka(brokers).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length > 0)
      await admin.createTopics({
        topics: missing.map((topic) => ({ topic, numPartitions: 3 })),
        waitForLeaders: true,
      });
  } finally {
    await admin.disconnect();
  }
}

/** A producer and an admin client on the stack's brokers; close() when done. */
export async function connectTestKafka(brokers: string[]): Promise<TestKafka> {
  const kafka = testKafka(brokers);
  const producer = kafka.producer();
  const admin = kafka.admin();
  await Promise.all([producer.connect(), admin.connect()]);
  return {
    async produce(topic, key, value, headers) {
      const [result] = await producer.send({ topic, messages: [{ key, value, headers }] });
      return { partition: result!.partition, offset: result!.baseOffset! };
    },
    async waitUntilCommitted(groupId, topic, position) {
      await eventually(
        `group ${groupId} to commit ${topic}/${position.partition}@${position.offset}`,
        async () => {
          const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
          const committed = offsets?.partitions.find(
            (entry) => entry.partition === position.partition,
          )?.offset;
          return committed !== undefined && BigInt(committed) > BigInt(position.offset);
        },
      );
    },
    async waitUntilCaughtUp(groupId, topics, timeoutMs = 60_000) {
      const ends = await Promise.all(
        topics.map(async (topic) => ({ topic, ends: await admin.fetchTopicOffsets(topic) })),
      );
      await eventually(
        `group ${groupId} to catch up with ${topics.join(', ')}`,
        async () => {
          const committed = await admin.fetchOffsets({ groupId, topics });
          return ends.every(({ topic, ends: partitions }) =>
            partitions.every(({ partition, high, low }) => {
              if (high === low) return true; // nothing to replay there
              const offset = committed
                .find((entry) => entry.topic === topic)
                ?.partitions.find((entry) => entry.partition === partition)?.offset;
              return offset !== undefined && BigInt(offset) >= BigInt(high);
            }),
          );
        },
        { timeoutMs, intervalMs: 250 },
      );
    },
    async findMessage(topic, key) {
      const listener = await listenToTopic(brokers, topic);
      try {
        const message = await listener.waitFor(
          (candidate) => candidate.key?.toString() === key,
          30_000,
        );
        const headers = Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
        );
        return { value: message.value?.toString() ?? '', headers };
      } finally {
        await listener.stop();
      }
    },
    async close() {
      await Promise.all([producer.disconnect(), admin.disconnect()]);
    },
  };
}
