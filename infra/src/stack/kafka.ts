/**
 * Kafka 4 in KRaft mode (one node that is broker and controller) on
 * 127.0.0.1:9092, controller on 9093. The broker jars come from Maven Central
 * through infra/kafka/pom.xml; storage is formatted once with StorageTool.
 * Also owns the creation of the integration-event topics and their dead-letter topics.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { StackComponent } from './component';
import { requireJava } from './java';
import { copyDependencies, isCompleteDownload } from './maven';
import { dataDirectory, downloadsDirectory, infraRoot } from './paths';
import {
  execFileAsync,
  recordedLiveProcess,
  startBackgroundProcess,
  stopRecorded,
} from './processes';
import { tcpAnswers, waitUntilHealthy } from './probes';
import { say, withProgress } from './progress';
import { allKafkaTopics, host, kafkaTopicPartitions, ports } from './settings';

const name = 'kafka';
// 4.4.0 is on Maven Central without its kafka-tools-api jar; 4.3.1 resolves completely.
export const kafkaVersion = '4.3.1';
/** Where the broker's jars are copied (`.stack/downloads/kafka-<version>/libs`). */
export const kafkaLibrariesDirectory = join(downloadsDirectory, `kafka-${kafkaVersion}`, 'libs');
const librariesDirectory = kafkaLibrariesDirectory;

process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';

export function kafkaClient(clientId: string, brokers = [`${host}:${ports.kafka}`]): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING, retry: { retries: 2 } });
}

async function isHealthy(): Promise<boolean> {
  if (!(await tcpAnswers(ports.kafka))) return false;
  const admin = kafkaClient('raly-stack-health').admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function serverProperties(logDirectory: string): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@${host}:${ports.kafkaController}`,
    `listeners=PLAINTEXT://${host}:${ports.kafka},CONTROLLER://${host}:${ports.kafkaController}`,
    `advertised.listeners=PLAINTEXT://${host}:${ports.kafka}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${logDirectory}`,
    `num.partitions=${kafkaTopicPartitions}`,
    'auto.create.topics.enable=true',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=3',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    // Consumers in tests join a fresh group each time; waiting 3 s for more members only slows them.
    'group.initial.rebalance.delay.ms=0',
    'log.retention.hours=24',
    '',
  ].join('\n');
}

/**
 * Copies Kafka's jars from Maven Central (infra/kafka/pom.xml) once.
 * @param component the name on the progress lines
 * @throws Error when mvn fails
 */
export async function ensureKafkaLibraries(component = name): Promise<void> {
  if (isCompleteDownload(librariesDirectory)) return;
  await withProgress(component, `downloading Kafka ${kafkaVersion} with mvn`, () =>
    copyDependencies(component, join(infraRoot, 'kafka', 'pom.xml'), librariesDirectory, {
      'kafka.version': kafkaVersion,
    }),
  );
}

/**
 * The JVM arguments that run one Kafka node.
 * @param heap initial and maximum heap in MiB
 */
export function kafkaServerArgs(
  propertiesFile: string,
  heap: { initialMb: number; maxMb: number },
): string[] {
  return [
    `-Xms${heap.initialMb}m`,
    `-Xmx${heap.maxMb}m`,
    '-XX:+UseG1GC',
    '-XX:MaxGCPauseMillis=20',
    '-Djava.awt.headless=true',
    '-Dorg.slf4j.simpleLogger.defaultLogLevel=info',
    '-Dorg.slf4j.simpleLogger.showDateTime=true',
    '-cp',
    `${librariesDirectory}/*`,
    'kafka.Kafka',
    propertiesFile,
  ];
}

/**
 * A new Kafka cluster id: 16 random bytes in URL-safe base64 without padding
 * (22 characters), never starting with `-` — Kafka's own `Uuid.randomUuid()`
 * draws again for those, since the tools' argument parser takes such a value
 * for an option (1 id in 64 broke `StorageTool format`, a flaky CI run).
 */
export function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * Formats a node's KRaft storage once (StorageTool), unless `meta.properties` is there.
 * @param clusterId every node of one cluster must get the same id (default: a new one)
 */
export async function ensureFormattedStorage(
  java: string,
  propertiesFile: string,
  logDirectory: string,
  clusterId = newClusterId(),
  component = name,
): Promise<void> {
  if (existsSync(join(logDirectory, 'meta.properties'))) return;
  say(component, 'formatting KRaft storage');
  await execFileAsync(java, [
    '-cp',
    `${librariesDirectory}/*`,
    'kafka.tools.StorageTool',
    'format',
    // One argument, so that an id kept from before with a leading `-` is not taken for an option.
    `--cluster-id=${clusterId}`,
    '--config',
    propertiesFile,
    '--ignore-formatted',
  ]);
}

async function ensure(): Promise<'reused' | 'started'> {
  if (await isHealthy()) return 'reused';
  if (recordedLiveProcess(name)) await stopRecorded(name);
  const java = requireJava(name, 17);
  await ensureKafkaLibraries();
  const dataRoot = dataDirectory(name);
  const logDirectory = join(dataRoot, 'logs');
  const propertiesFile = join(dataRoot, 'server.properties');
  writeFileSync(propertiesFile, serverProperties(logDirectory));
  await ensureFormattedStorage(java.executable, propertiesFile, logDirectory);
  await withProgress(name, `starting Kafka ${kafkaVersion} (≈10 s)`, async () => {
    const pid = startBackgroundProcess({
      component: name,
      command: java.executable,
      args: kafkaServerArgs(propertiesFile, { initialMb: 256, maxMb: 512 }),
      cwd: dataRoot,
    });
    await waitUntilHealthy(isHealthy, {
      component: name,
      timeoutMs: 120_000,
      intervalMs: 1000,
      stillStarting: () => {
        if (!recordedLiveProcess(name))
          throw new Error(
            `${name}: exited while starting (pid ${pid}); see .stack/logs/${name}.log`,
          );
      },
    });
  });
  return 'started';
}

/**
 * Waits until every partition of `topics` has a leader. kafkajs' own
 * `waitForLeaders` gives up when the broker it asks has not heard of a new
 * topic yet (UNKNOWN_TOPIC_OR_PARTITION, common in a cluster of several
 * nodes); this asks again until the time is up.
 * @param timeoutMs how long to wait (default 60 s)
 * @throws Error naming the topics still without leaders when the time is up
 */
export async function waitForLeaders(
  admin: Admin,
  topics: string[],
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = '';
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      const leaderless = metadata.topics.filter((topic) =>
        topic.partitions.some((partition) => partition.leader < 0),
      );
      if (leaderless.length === 0 && metadata.topics.length === topics.length) return;
      lastProblem = `no leader yet: ${leaderless.map((topic) => topic.name).join(', ')}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(`kafka: topics ${topics.join(', ')} have no leaders (${lastProblem})`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** How the integration-event topics are created: partitions, replicas and topic-level configs. */
export interface TopicLayout {
  partitions: number;
  replicationFactor: number;
  /** Topic configs, e.g. `{ 'min.insync.replicas': '2' }`. */
  configs?: Record<string, string>;
}

/**
 * Creates the integration-event topics and their dead-letter topics when missing.
 * @param brokers `host:port` list (default the plain stack's broker)
 * @param layout default: 3 partitions, replication factor 1 (the one-broker stack)
 */
export async function ensureTopics(
  brokers?: string[],
  layout: TopicLayout = { partitions: kafkaTopicPartitions, replicationFactor: 1 },
): Promise<void> {
  const admin = kafkaClient('raly-stack-topics', brokers).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = allKafkaTopics().filter((topic) => !existing.has(topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: false,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: layout.partitions,
        replicationFactor: layout.replicationFactor,
        configEntries: Object.entries(layout.configs ?? {}).map(([configName, value]) => ({
          name: configName,
          value,
        })),
      })),
    });
    await waitForLeaders(admin, missing);
    say(name, `created topics ${missing.join(', ')} (${brokers?.join(',') ?? 'plain stack'})`);
  } finally {
    await admin.disconnect();
  }
}

export const kafka: StackComponent = {
  name,
  address: `${host}:${ports.kafka}`,
  isHealthy,
  ensure,
  stop: () => stopRecorded(name, 30_000),
};
