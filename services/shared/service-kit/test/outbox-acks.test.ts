/**
 * The outbox relay publishes with acks=all (-1), so a row is marked published
 * only once every in-sync replica has its message (the topics have RF 3, min ISR 2).
 * An in-memory store and a producer that records its sends; no Kafka needed.
 */
import assert from 'node:assert/strict';
import type { Producer, ProducerRecord } from 'kafkajs';
import { test } from 'vitest';
import { allReplicas } from '../src/kafka';
import { createLogger } from '../src/logger';
import { createOutboxRelay, type ClaimedOutboxRow, type OutboxStore } from '../src/outbox/index';

test('when the relay publishes claimed rows, then every send asks for acks from all in-sync replicas', async () => {
  // Arrange
  const rows: ClaimedOutboxRow[] = ['a', 'b'].map((id) => ({
    id,
    topic: id === 'a' ? 'identity.user.v1' : 'brand.brand.v1',
    key: `key-${id}`,
    eventType: 'identity.user.updated',
    envelope: { id },
    attempts: 0,
    traceparent: null,
    tracestate: null,
  }));
  const published: string[] = [];
  let pending = [...rows];
  const store: OutboxStore = {
    withClaim: async (limit, work) => {
      const claimed = pending.slice(0, limit);
      pending = pending.slice(limit);
      return work({
        rows: claimed,
        markPublished: async (ids) => void published.push(...ids),
        markFailed: async () => undefined,
      });
    },
    prunePublished: async () => 0,
  };
  const sends: ProducerRecord[] = [];
  const producer = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    send: async (record: ProducerRecord) => {
      sends.push(record);
      return [];
    },
  } as unknown as Producer;
  const relay = createOutboxRelay({
    store,
    producer,
    logger: createLogger('kit-test', 'silent'),
    pollIntervalMs: 10,
  });

  // Act
  relay.start();
  const deadline = Date.now() + 5000;
  while (published.length < rows.length && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await relay.stop();

  // Assert
  assert.deepEqual(published.sort(), ['a', 'b']);
  assert.equal(allReplicas, -1);
  assert.deepEqual(
    sends.map((send) => [send.topic, send.acks]),
    [
      ['identity.user.v1', -1],
      ['brand.brand.v1', -1],
    ],
  );
});
