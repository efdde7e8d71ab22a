/** Producing test events and watching a consumer group's progress. */
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { eventually } from './eventually';

export interface TestKafka {
  /**
   * Publishes one message keyed by `key`.
   * @returns the partition and offset it landed at
   */
  produce(
    topic: string,
    key: string,
    value: string | Buffer,
  ): Promise<{ partition: number; offset: string }>;
  /** Resolves once `groupId` has committed past `offset` on the partition (i.e. handled the message). */
  waitUntilCommitted(
    groupId: string,
    topic: string,
    position: { partition: number; offset: string },
  ): Promise<void>;
  /** Reads `topic` from the beginning until a message with `key` appears. */
  findMessage(
    topic: string,
    key: string,
  ): Promise<{ value: string; headers: Record<string, string> }>;
  close(): Promise<void>;
}

export async function connectTestKafka(brokers: string[]): Promise<TestKafka> {
  const kafka = new Kafka({ clientId: 'bff-test', brokers, logLevel: logLevel.NOTHING });
  const producer: Producer = kafka.producer();
  const admin = kafka.admin();
  await Promise.all([producer.connect(), admin.connect()]);
  return {
    async produce(topic, key, value) {
      const [result] = await producer.send({ topic, messages: [{ key, value }] });
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
          return committed !== undefined && BigInt(committed) > BigInt(position.offset)
            ? true
            : undefined;
        },
      );
    },
    async findMessage(topic, key) {
      const consumer = kafka.consumer({ groupId: `bff-test-reader-${key}` });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      let found: { value: string; headers: Record<string, string> } | undefined;
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (message.key?.toString() !== key) return;
          const headers = Object.fromEntries(
            Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
          );
          found = { value: message.value?.toString() ?? '', headers };
        },
      });
      try {
        return await eventually(`a message keyed ${key} on ${topic}`, async () => found, 30_000);
      } finally {
        await consumer.disconnect();
      }
    },
    async close() {
      await Promise.all([producer.disconnect(), admin.disconnect()]);
    },
  };
}
