/**
 * The scaled topology's Kafka cluster (docs/architecture.md), for real: three KRaft
 * nodes on test ports (RALY_TEST_KAFKA_CLUSTER_PORTS, default 17092-17094,
 * controllers +100), a topic with RF 3 and min ISR 2, acks=all sends, one node
 * killed with SIGKILL, more sends, and every acknowledged message read back;
 * each node's Prometheus metrics (JMX exporter, ports +200) show the failure.
 * Everything started here is stopped in afterAll.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { waitForLeaders } from '../src/stack/kafka';
import { isAlive } from '../src/stack/processes';
import { kafkaCluster, type KafkaCluster } from '../src/stack/scale/kafka-cluster';

const clientPorts = (process.env.RALY_TEST_KAFKA_CLUSTER_PORTS ?? '17092,17093,17094')
  .split(',')
  .map(Number);
const dataRoot = mkdtempSync(join(tmpdir(), 'raly-kafka-cluster-'));
const cluster: KafkaCluster = kafkaCluster({
  name: 'test-kafka-cluster',
  nodes: clientPorts.map((port, index) => ({
    id: index + 1,
    port,
    controllerPort: port + 100,
    metricsPort: port + 200,
  })),
  dataRoot,
  heapMb: 256,
  replicationFactor: 3,
  minInsyncReplicas: 2,
  partitions: 6,
});
// Retries long enough to outlast a leader election after a node dies (session timeout 6 s).
const kafka = new Kafka({
  clientId: 'infra-kafka-cluster-test',
  brokers: cluster.brokers,
  logLevel: logLevel.NOTHING,
  retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 5000 },
});

async function sendAll(producer: Producer, topic: string, values: string[]): Promise<void> {
  for (let start = 0; start < values.length; start += 50) {
    await producer.send({
      topic,
      acks: -1,
      messages: values.slice(start, start + 50).map((value) => ({ key: value, value })),
    });
  }
}

/** One gauge's value from a node's `/metrics` (Prometheus text), or undefined when absent. */
async function nodeGauge(nodeIndex: number, metric: string): Promise<number | undefined> {
  const response = await fetch(`http://127.0.0.1:${clientPorts[nodeIndex]! + 200}/metrics`);
  assert.equal(response.status, 200);
  const line = (await response.text())
    .split('\n')
    .find((candidate) => candidate.startsWith(`${metric} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(isAlive(pid), false, `pid ${pid} still alive after SIGKILL`);
}

describe('a 3-node Kafka cluster', () => {
  beforeAll(async () => {
    await cluster.ensure();
  }, 240_000);

  afterAll(async () => {
    await cluster.stop();
    rmSync(dataRoot, { recursive: true, force: true });
  }, 90_000);

  test('when one node is killed while acks=all sends flow, then every acknowledged message is consumed', async () => {
    // Arrange
    const topic = `infra.failover.${randomUUID()}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [
        {
          topic,
          numPartitions: 6,
          replicationFactor: 3,
          configEntries: [{ name: 'min.insync.replicas', value: '2' }],
        },
      ],
    });
    await waitForLeaders(admin, [topic]);
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    const partitions = metadata.topics[0]!.partitions;
    assert.equal(partitions.length, 6);
    assert.ok(partitions.every((partition) => partition.replicas.length === 3));
    // The node killed below leads some partitions: their writes need a new leader.
    assert.ok(partitions.some((partition) => partition.leader === 2));
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const before = Array.from({ length: 300 }, (_, index) => `before-${index}`);
    const after = Array.from({ length: 300 }, (_, index) => `after-${index}`);
    const consumer = kafka.consumer({ groupId: `infra-failover-${randomUUID()}` });
    try {
      await sendAll(producer, topic, before);
      const underReplicated = 'kafka_server_replicamanager_underreplicatedpartitions';
      assert.equal(await nodeGauge(0, underReplicated), 0);
      assert.ok(((await nodeGauge(0, 'kafka_server_replicamanager_partitioncount')) ?? 0) > 0);

      // Act: SIGKILL node 2, then keep sending.
      const victim = cluster.pid(2);
      assert.ok(victim, 'node 2 was not started by this test');
      process.kill(victim, 'SIGKILL');
      await waitForExit(victim, 10_000);
      await sendAll(producer, topic, after);

      // Assert: every acknowledged message, read from the two survivors.
      const received = new Set<string>();
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      const all = new Promise<void>((resolve) => {
        void consumer.run({
          eachMessage: async ({ message }) => {
            received.add(message.value?.toString() ?? '');
            if (received.size === before.length + after.length) resolve();
          },
        });
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        all,
        new Promise((resolve) => {
          timer = setTimeout(resolve, 90_000);
        }),
      ]).finally(() => clearTimeout(timer));
      const missing = [...before, ...after].filter((value) => !received.has(value));
      assert.deepEqual(missing, [], `${missing.length} acknowledged messages were not consumed`);
      assert.equal(await cluster.nodes[1]!.isHealthy(), false);
      assert.equal(await cluster.nodes[0]!.isHealthy(), true);
      // The survivors' metrics show the partitions that lost a replica (node 2 left their ISRs).
      const deadline = Date.now() + 60_000;
      let survivorsUnderReplicated = 0;
      while (survivorsUnderReplicated === 0 && Date.now() < deadline) {
        survivorsUnderReplicated =
          ((await nodeGauge(0, underReplicated)) ?? 0) +
          ((await nodeGauge(2, underReplicated)) ?? 0);
        if (survivorsUnderReplicated === 0)
          await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.ok(
        survivorsUnderReplicated > 0,
        'no under-replicated partition reported after the kill',
      );
    } finally {
      await consumer.disconnect().catch(() => undefined);
      await producer.disconnect().catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
    }
  }, 240_000);
});
