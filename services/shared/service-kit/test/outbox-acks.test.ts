/**
 * The outbox relay publishes a claim's rows in one produce request with
 * acks=all (-1), so a row is marked published only once every in-sync replica
 * has its message (the topics have RF 3, min ISR 2); when that request fails,
 * each topic is sent on its own and only a refused topic's rows wait for a
 * retry. An in-memory store and a producer that records its sends; no Kafka needed.
 */
import assert from 'node:assert/strict';
import type { Producer, ProducerBatch, ProducerRecord } from 'kafkajs';
import { test } from 'vitest';
import { allReplicas } from '../src/kafka';
import { createLogger } from '../src/logger';
import { createOutboxRelay, type ClaimedOutboxRow, type OutboxStore } from '../src/outbox/index';

/** Rows `a` (identity.user.v1) and `b` (brand.brand.v1). */
const twoTopicsRows = (): ClaimedOutboxRow[] =>
  ['a', 'b'].map((id) => ({
    id,
    topic: id === 'a' ? 'identity.user.v1' : 'brand.brand.v1',
    key: `key-${id}`,
    eventType: 'identity.user.updated',
    envelope: { id },
    attempts: 0,
    traceparent: null,
    tracestate: null,
  }));

/**
 * Runs a relay over `rows` until every row is marked, with `producer`'s send and sendBatch.
 * @returns the ids marked published and failed
 */
async function relayed(
  rows: ClaimedOutboxRow[],
  producer: Pick<Producer, 'send' | 'sendBatch'>,
): Promise<{ published: string[]; failed: string[] }> {
  const published: string[] = [];
  const failed: string[] = [];
  let pending = [...rows];
  const store: OutboxStore = {
    withClaim: async (limit, work) => {
      const claimed = pending.slice(0, limit);
      pending = pending.slice(limit);
      return work({
        rows: claimed,
        markPublished: async (ids) => void published.push(...ids),
        markFailed: async (failures) => void failed.push(...failures.map(({ id }) => id)),
      });
    },
    markPublished: async (ids) => void published.push(...ids),
    markFailed: async (failures) => void failed.push(...failures.map(({ id }) => id)),
    prunePublished: async () => 0,
  };
  const relay = createOutboxRelay({
    store,
    producer: {
      connect: async () => undefined,
      disconnect: async () => undefined,
      ...producer,
    } as unknown as Producer,
    logger: createLogger('kit-test', 'silent'),
    pollIntervalMs: 10,
  });
  relay.start();
  const deadline = Date.now() + 5000;
  while (published.length + failed.length < rows.length && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await relay.stop();
  return { published: published.sort(), failed: failed.sort() };
}

test('when the relay publishes claimed rows of two topics, then one request carries both and asks for acks from all in-sync replicas', async () => {
  // Arrange
  const batches: ProducerBatch[] = [];
  const sends: ProducerRecord[] = [];

  // Act
  const outcome = await relayed(twoTopicsRows(), {
    send: async (record) => {
      sends.push(record);
      return [];
    },
    sendBatch: async (batch) => {
      batches.push(batch);
      return [];
    },
  });

  // Assert
  assert.deepEqual(outcome, { published: ['a', 'b'], failed: [] });
  assert.equal(allReplicas, -1);
  assert.deepEqual(
    batches.map((batch) => [batch.acks, batch.topicMessages?.map(({ topic }) => topic)]),
    [[-1, ['identity.user.v1', 'brand.brand.v1']]],
  );
  assert.deepEqual(sends, []);
});

test('when the one request fails and then Kafka refuses one topic, then the other topic is published and only the refused rows wait for a retry', async () => {
  // Arrange
  const sends: ProducerRecord[] = [];

  // Act
  const outcome = await relayed(twoTopicsRows(), {
    sendBatch: async () => {
      throw new Error('one topic of the batch was refused');
    },
    send: async (record) => {
      sends.push(record);
      if (record.topic === 'brand.brand.v1') throw new Error('topic refused');
      return [];
    },
  });

  // Assert
  assert.deepEqual(outcome, { published: ['a'], failed: ['b'] });
  assert.deepEqual(
    sends.map((send) => [send.topic, send.acks]),
    [
      ['identity.user.v1', -1],
      ['brand.brand.v1', -1],
    ],
  );
});

test('when Kafka cannot be reached, then writers leave their rows to the claims until a claim publishes again', async () => {
  // Arrange: a producer that cannot connect until Kafka is back
  let kafkaBack = false;
  const store: OutboxStore = {
    withClaim: async (_limit, work) =>
      work({ rows: [], markPublished: async () => undefined, markFailed: async () => undefined }),
    markPublished: async () => undefined,
    markFailed: async () => undefined,
    prunePublished: async () => 0,
  };
  const relay = createOutboxRelay({
    store,
    producer: {
      connect: async () => {
        if (!kafkaBack) throw new Error('Kafka unreachable');
      },
      disconnect: async () => undefined,
    } as unknown as Producer,
    logger: createLogger('kit-test', 'silent'),
    pollIntervalMs: 10,
  });
  const waitFor = async (condition: () => boolean) => {
    for (let waited = 0; !condition() && waited < 5_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return condition();
  };

  // Act
  const before = relay.takesHandOffs();
  relay.start();
  const whileAway = await waitFor(() => !relay.takesHandOffs());
  kafkaBack = true;
  const once = await waitFor(() => relay.takesHandOffs());
  await relay.stop();

  // Assert
  assert.equal(before, false, 'a relay not started takes no hand-off');
  assert.equal(whileAway, true, 'no hand-off while a pass fails');
  assert.equal(once, true, 'hand-offs again once a claim went through');
});
