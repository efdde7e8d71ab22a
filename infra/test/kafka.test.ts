import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import { kafkaClient } from '../src/stack/kafka';
import { resolveTestStack } from '../src/test-env';

test('when a message is produced to a topic, then a consumer of a new group receives it with its key', async () => {
  // Arrange
  const stack = await resolveTestStack();
  const kafka = kafkaClient('infra-roundtrip-test', stack.kafkaBrokers);
  const topic = `infra.roundtrip.${randomUUID()}`;
  const key = randomUUID();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    topics: [{ topic, numPartitions: 1, replicationFactor: 1 }],
    waitForLeaders: true,
  });
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: `infra-test-${randomUUID()}` });
  try {
    await Promise.all([producer.connect(), consumer.connect()]);
    await consumer.subscribe({ topic, fromBeginning: true });
    const received = new Promise<{ key: string; value: string }>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) =>
          resolve({ key: message.key?.toString() ?? '', value: message.value?.toString() ?? '' }),
      });
    });

    // Act
    await producer.send({ topic, messages: [{ key, value: JSON.stringify({ hello: 'raly' }) }] });

    // Assert
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no message within 30 s')), 30_000);
    });
    const message = await Promise.race([received, timeout]).finally(() => clearTimeout(timer));
    assert.deepEqual(message, { key, value: '{"hello":"raly"}' });
  } finally {
    await Promise.allSettled([consumer.disconnect(), producer.disconnect()]);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
});
