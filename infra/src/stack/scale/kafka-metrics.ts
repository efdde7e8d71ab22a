/**
 * Prometheus metrics of the scaled topology's Kafka nodes: the Prometheus JMX
 * exporter (`io.prometheus.jmx:jmx_prometheus_javaagent` from Maven Central)
 * as a Java agent in each node's JVM, serving `/metrics` on the node's own
 * metrics port (127.0.0.1 only), with the production overlay's rules (what an
 * operator watches during a broker failure) plus the agent's JVM metrics.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { copyArtifact } from '../maven';
import { downloadsDirectory, repositoryRoot } from '../paths';
import { withProgress } from '../progress';
import { host } from '../settings';

export const jmxExporterVersion = '1.0.1';
const agentDirectory = join(downloadsDirectory, `jmx-exporter-${jmxExporterVersion}`);
const agentJar = join(agentDirectory, `jmx_prometheus_javaagent-${jmxExporterVersion}.jar`);

/**
 * The exporter's rules (YAML): which MBeans it reads and the metric names they
 * get (`kafka_server_replicamanager_underreplicatedpartitions`, …). The same
 * file configures Strimzi's exporter in production (k8s/overlays/production).
 */
export const kafkaMetricsConfigFile = join(
  repositoryRoot,
  'k8s',
  'overlays',
  'production',
  'kafka-metrics-config.yml',
);

let agentDownload: Promise<void> | undefined;

/**
 * Downloads the agent with mvn once (into `.stack/downloads/`); concurrent callers share
 * one download (the nodes of a cluster start together).
 * @param component the name progress lines carry
 * @throws Error when mvn cannot fetch the agent
 */
export async function ensureKafkaMetricsAgent(component: string): Promise<void> {
  if (existsSync(agentJar)) return;
  agentDownload ??= withProgress(
    component,
    `downloading the JMX exporter ${jmxExporterVersion} with mvn`,
    () =>
      copyArtifact(
        component,
        `io.prometheus.jmx:jmx_prometheus_javaagent:${jmxExporterVersion}`,
        agentDirectory,
      ),
  ).finally(() => {
    agentDownload = undefined;
  });
  await agentDownload;
}

/**
 * The JVM option that loads the agent, downloading it first when missing.
 * @param component the name progress lines carry
 * @param metricsPort where the agent serves `/metrics` (127.0.0.1)
 * @returns `-javaagent:<jar>=127.0.0.1:<metricsPort>:<rules file>`
 * @throws Error when mvn cannot fetch the agent
 */
export async function kafkaMetricsAgentOption(
  component: string,
  metricsPort: number,
): Promise<string> {
  await ensureKafkaMetricsAgent(component);
  return `-javaagent:${agentJar}=${host}:${metricsPort}:${kafkaMetricsConfigFile}`;
}
