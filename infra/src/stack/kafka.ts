/**
 * Kafka 4 in KRaft mode (one node that is broker and controller) on
 * 127.0.0.1:9092, controller on 9093. The broker jars come from Maven Central
 * through infra/kafka/pom.xml; storage is formatted once with StorageTool.
 * Also owns the creation of the integration-event topics and their dead-letter topics.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
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
const librariesDirectory = join(downloadsDirectory, `kafka-${kafkaVersion}`, 'libs');

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

async function ensureLibraries(): Promise<void> {
  if (isCompleteDownload(librariesDirectory)) return;
  await withProgress(name, `downloading Kafka ${kafkaVersion} with mvn`, () =>
    copyDependencies(name, join(infraRoot, 'kafka', 'pom.xml'), librariesDirectory, {
      'kafka.version': kafkaVersion,
    }),
  );
}

/** Kafka's cluster ids are 16 random bytes in URL-safe base64 without padding. */
function newClusterId(): string {
  return randomBytes(16).toString('base64url');
}

async function ensureFormattedStorage(
  java: string,
  propertiesFile: string,
  logDirectory: string,
): Promise<void> {
  if (existsSync(join(logDirectory, 'meta.properties'))) return;
  say(name, 'formatting KRaft storage');
  await execFileAsync(java, [
    '-cp',
    `${librariesDirectory}/*`,
    'kafka.tools.StorageTool',
    'format',
    '--cluster-id',
    newClusterId(),
    '--config',
    propertiesFile,
    '--ignore-formatted',
  ]);
}

async function ensure(): Promise<'reused' | 'started'> {
  if (await isHealthy()) return 'reused';
  if (recordedLiveProcess(name)) await stopRecorded(name);
  const java = requireJava(name, 17);
  await ensureLibraries();
  const dataRoot = dataDirectory(name);
  const logDirectory = join(dataRoot, 'logs');
  const propertiesFile = join(dataRoot, 'server.properties');
  writeFileSync(propertiesFile, serverProperties(logDirectory));
  await ensureFormattedStorage(java.executable, propertiesFile, logDirectory);
  await withProgress(name, `starting Kafka ${kafkaVersion} (≈10 s)`, async () => {
    const pid = startBackgroundProcess({
      component: name,
      command: java.executable,
      args: [
        '-Xms256m',
        '-Xmx512m',
        '-XX:+UseG1GC',
        '-XX:MaxGCPauseMillis=20',
        '-Djava.awt.headless=true',
        '-Dorg.slf4j.simpleLogger.defaultLogLevel=info',
        '-Dorg.slf4j.simpleLogger.showDateTime=true',
        '-cp',
        `${librariesDirectory}/*`,
        'kafka.Kafka',
        propertiesFile,
      ],
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

/** Creates the integration-event topics and their dead-letter topics when missing. */
export async function ensureTopics(brokers?: string[]): Promise<void> {
  const admin = kafkaClient('raly-stack-topics', brokers).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = allKafkaTopics().filter((topic) => !existing.has(topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: kafkaTopicPartitions,
        replicationFactor: 1,
      })),
    });
    say(name, `created topics ${missing.join(', ')}`);
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
