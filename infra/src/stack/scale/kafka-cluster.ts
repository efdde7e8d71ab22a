/**
 * A Kafka cluster of several KRaft nodes on loopback, each broker and
 * controller at once, with a static voter set (`controller.quorum.voters`):
 * three nodes keep a quorum and every partition writable (RF 3,
 * `min.insync.replicas` 2) with one node down. Same Kafka jars as the plain
 * stack (../kafka.ts); each node is one StackComponent (`kafka-scale-1` …) so
 * `stack status` shows it and `npm stop` stops it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnsureOutcome, StackComponent } from '../component';
import { requireJava } from '../java';
import {
  ensureFormattedStorage,
  ensureKafkaLibraries,
  ensureTopics,
  kafkaClient,
  kafkaServerArgs,
  newClusterId,
  type TopicLayout,
} from '../kafka';
import { ensureDirectory } from '../paths';
import { recordedLiveProcess, stopRecorded } from '../processes';
import { tcpAnswers, waitUntilHealthy } from '../probes';
import { withProgress } from '../progress';
import { host } from '../settings';
import { startAndAwaitHealthy } from './background';
import { ensureKafkaMetricsAgent, kafkaMetricsAgentOption } from './kafka-metrics';

/** One node: its id (1…), client port and controller port. */
export interface KafkaNode {
  id: number;
  port: number;
  controllerPort: number;
  /** When given, the node serves Prometheus metrics (JMX exporter agent, ./kafka-metrics.ts) here. */
  metricsPort?: number;
}

export interface KafkaClusterOptions {
  /** Component name prefix: node n is `<name>-<n>` (run record, log file). */
  name: string;
  nodes: KafkaNode[];
  /** Where each node keeps `node-<id>/` (properties and log segments) and the cluster id. */
  dataRoot: string;
  /** Maximum JVM heap per node, in MiB (default 256). */
  heapMb?: number;
  /** Replication of Kafka's internal topics and of auto-created topics, and their min ISR. */
  replicationFactor: number;
  minInsyncReplicas: number;
  /** Partitions of auto-created topics. */
  partitions: number;
}

/**
 * The server.properties of one node: broker and controller, all nodes as
 * voters, replication of internal and auto-created topics as the cluster's.
 * @returns the file's text (`key=value` lines)
 */
export function kafkaNodeProperties(
  node: KafkaNode,
  options: Pick<
    KafkaClusterOptions,
    'nodes' | 'replicationFactor' | 'minInsyncReplicas' | 'partitions'
  >,
  logDirectory: string,
): string {
  const voters = options.nodes
    .map((voter) => `${voter.id}@${host}:${voter.controllerPort}`)
    .join(',');
  const replication = String(options.replicationFactor);
  const minIsr = String(options.minInsyncReplicas);
  return [
    'process.roles=broker,controller',
    `node.id=${node.id}`,
    `controller.quorum.voters=${voters}`,
    `listeners=PLAINTEXT://${host}:${node.port},CONTROLLER://${host}:${node.controllerPort}`,
    `advertised.listeners=PLAINTEXT://${host}:${node.port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${logDirectory}`,
    `num.partitions=${options.partitions}`,
    `default.replication.factor=${replication}`,
    `min.insync.replicas=${minIsr}`,
    'auto.create.topics.enable=true',
    // A replica that stayed behind must not become leader: it would lose acknowledged writes.
    'unclean.leader.election.enable=false',
    `offsets.topic.replication.factor=${replication}`,
    'offsets.topic.num.partitions=6',
    `transaction.state.log.replication.factor=${replication}`,
    `transaction.state.log.min.isr=${minIsr}`,
    `share.coordinator.state.topic.replication.factor=${replication}`,
    `share.coordinator.state.topic.min.isr=${minIsr}`,
    'group.initial.rebalance.delay.ms=0',
    // A node that died is fenced after this long, and its partitions get new leaders.
    'broker.session.timeout.ms=6000',
    'broker.heartbeat.interval.ms=1000',
    'log.retention.hours=24',
    '',
  ].join('\n');
}

/** A running (or startable) cluster: one component per node, its bootstrap list, its topics. */
export interface KafkaCluster {
  /** `127.0.0.1:<port>` of every node, for KAFKA_BROKERS. */
  brokers: string[];
  /** One component per node (`<name>-<id>`), in node order. */
  nodes: StackComponent[];
  /**
   * Starts (or reuses) every node at once (a quorum needs a majority), waiting until all are healthy.
   * @param onEnsured told of each node as soon as it is healthy, so a caller can stop the ones
   *   it started even when another node fails
   */
  ensure(
    onEnsured?: (name: string, outcome: EnsureOutcome) => void,
  ): Promise<Record<string, EnsureOutcome>>;
  /** Creates the integration-event topics and their `.dlq` topics with this layout when missing. */
  ensureTopics(layout: TopicLayout): Promise<void>;
  /**
   * Waits (up to 60 s) until the coordinators of these consumer groups answer: right after
   * the cluster forms, `__consumer_offsets` is still loading and every consumer that joins
   * then crashes once with COORDINATOR_LOAD_IN_PROGRESS before kafkajs restarts it.
   */
  awaitGroupCoordinators(groupIds: string[]): Promise<void>;
  /** Stops the nodes this stack started; answers their names. */
  stop(): Promise<string[]>;
  /** The pid of a node's JVM when this stack started it and it is alive. */
  pid(nodeId: number): number | undefined;
}

/** The cluster id every node is formatted with, kept in `<dataRoot>/cluster-id`. */
function clusterId(dataRoot: string): string {
  const file = join(ensureDirectory(dataRoot), 'cluster-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const id = newClusterId();
  writeFileSync(file, `${id}\n`);
  return id;
}

/**
 * Describes a cluster of KRaft nodes (see the module comment); nothing starts until `ensure()`.
 * @throws Error from `ensure()` when Java 17+ or mvn is missing, or a node is not healthy within 3 min
 */
export function kafkaCluster(options: KafkaClusterOptions): KafkaCluster {
  const brokers = options.nodes.map((node) => `${host}:${node.port}`);
  const componentName = (node: KafkaNode) => `${options.name}-${node.id}`;

  /** Healthy: the node answers metadata and lists itself among the cluster's live brokers. */
  async function nodeHealthy(node: KafkaNode): Promise<boolean> {
    if (!(await tcpAnswers(node.port))) return false;
    const admin = kafkaClient(`raly-stack-health-${node.id}`, [`${host}:${node.port}`]).admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      return cluster.brokers.some((broker) => broker.nodeId === node.id);
    } catch {
      return false;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  async function startNode(node: KafkaNode, id: string): Promise<EnsureOutcome> {
    const name = componentName(node);
    if (await nodeHealthy(node)) return 'reused';
    if (recordedLiveProcess(name)) await stopRecorded(name);
    const java = requireJava(name, 17);
    const nodeRoot = ensureDirectory(join(options.dataRoot, `node-${node.id}`));
    const logDirectory = join(nodeRoot, 'logs');
    const propertiesFile = join(nodeRoot, 'server.properties');
    writeFileSync(propertiesFile, kafkaNodeProperties(node, options, logDirectory));
    await ensureFormattedStorage(java.executable, propertiesFile, logDirectory, id, name);
    const heapMb = options.heapMb ?? 256;
    const agent =
      node.metricsPort === undefined ? [] : [await kafkaMetricsAgentOption(name, node.metricsPort)];
    await startAndAwaitHealthy(
      {
        component: name,
        command: java.executable,
        args: [
          ...agent,
          ...kafkaServerArgs(propertiesFile, { initialMb: Math.min(128, heapMb), maxMb: heapMb }),
        ],
        cwd: nodeRoot,
      },
      () => nodeHealthy(node),
      180_000,
    );
    return 'started';
  }

  const nodes: StackComponent[] = options.nodes.map((node) => ({
    name: componentName(node),
    address: `${host}:${node.port}`,
    isHealthy: () => nodeHealthy(node),
    ensure: async () => {
      await ensureKafkaLibraries(componentName(node));
      return startNode(node, clusterId(options.dataRoot));
    },
    stop: () => stopRecorded(componentName(node), 30_000),
  }));

  return {
    brokers,
    nodes,
    async ensure(onEnsured) {
      await ensureKafkaLibraries(options.name);
      if (options.nodes.some((node) => node.metricsPort !== undefined))
        await ensureKafkaMetricsAgent(options.name);
      const id = clusterId(options.dataRoot);
      // Every node settles before a failure is reported: a caller that stops the cluster
      // on failure then finds each node it started, none still on its way up.
      const settled = await withProgress(
        options.name,
        `starting ${options.nodes.length} Kafka nodes on ${brokers.join(', ')}`,
        () =>
          Promise.allSettled(
            options.nodes.map(async (node) => {
              const outcome = await startNode(node, id);
              onEnsured?.(componentName(node), outcome);
              return outcome;
            }),
          ),
      );
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      return Object.fromEntries(
        options.nodes.map((node, index) => [
          componentName(node),
          (settled[index] as PromiseFulfilledResult<EnsureOutcome>).value,
        ]),
      );
    },
    ensureTopics: (layout) => ensureTopics(brokers, layout),
    async awaitGroupCoordinators(groupIds) {
      const admin = kafkaClient('raly-stack-groups', brokers).admin();
      await admin.connect();
      try {
        await waitUntilHealthy(
          () =>
            admin.describeGroups(groupIds).then(
              () => true,
              () => false,
            ),
          { component: options.name, timeoutMs: 60_000 },
        );
      } finally {
        await admin.disconnect();
      }
    },
    async stop() {
      const stopped = await Promise.all(nodes.map((node) => node.stop()));
      return nodes.filter((_, index) => stopped[index]).map((node) => node.name);
    },
    pid: (nodeId) => {
      const node = options.nodes.find((candidate) => candidate.id === nodeId);
      return node ? recordedLiveProcess(componentName(node)) : undefined;
    },
  };
}
