/**
 * Prometheus metrics of the scaled topology's Kafka nodes: the Prometheus JMX
 * exporter (`io.prometheus.jmx:jmx_prometheus_javaagent` from Maven Central)
 * as a Java agent in each node's JVM, serving `/metrics` on the node's own
 * metrics port (127.0.0.1 only). The rules keep what an operator watches
 * during a broker failure — under-replicated and under-min-ISR partitions,
 * offline partitions, the active controller, leaders per node, messages in —
 * plus the agent's default JVM metrics; nothing else is exported.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyArtifact } from '../maven';
import { downloadsDirectory } from '../paths';
import { withProgress } from '../progress';
import { host } from '../settings';

export const jmxExporterVersion = '1.0.1';
const agentDirectory = join(downloadsDirectory, `jmx-exporter-${jmxExporterVersion}`);
const agentJar = join(agentDirectory, `jmx_prometheus_javaagent-${jmxExporterVersion}.jar`);

/**
 * The exporter's configuration (YAML): which MBeans it reads and the metric
 * names they get (`kafka_server_replicamanager_underreplicatedpartitions`, …).
 */
export const kafkaMetricsConfig = `# Written by infra/src/stack/scale/kafka-metrics.ts
lowercaseOutputName: true
lowercaseOutputLabelNames: true
includeObjectNames:
  - "kafka.server:type=ReplicaManager,*"
  - "kafka.controller:type=KafkaController,*"
  - "kafka.server:type=BrokerTopicMetrics,*"
rules:
  - pattern: "kafka.server<type=ReplicaManager, name=(\\\\w+)><>Value"
    name: kafka_server_replicamanager_$1
    type: GAUGE
    help: "Kafka ReplicaManager $1 (gauge)"
  - pattern: "kafka.controller<type=KafkaController, name=(\\\\w+)><>Value"
    name: kafka_controller_kafkacontroller_$1
    type: GAUGE
    help: "Kafka controller $1 (gauge)"
  - pattern: "kafka.server<type=BrokerTopicMetrics, name=(\\\\w+)PerSec, topic=([^,>]+)><>Count"
    name: kafka_server_brokertopicmetrics_$1_total
    type: COUNTER
    labels:
      topic: "$2"
    help: "Kafka broker $1 per topic (counter)"
  - pattern: "kafka.server<type=BrokerTopicMetrics, name=(\\\\w+)PerSec><>Count"
    name: kafka_server_brokertopicmetrics_$1_total
    type: COUNTER
    help: "Kafka broker $1, all topics (counter)"
`;

/**
 * Downloads the agent with mvn once (into `.stack/downloads/`) and writes its
 * configuration next to a node's files.
 * @param component the name progress lines carry
 * @param nodeRoot the node's folder (its `jmx-exporter.yaml` goes there)
 * @returns the JVM option that loads the agent on `127.0.0.1:<metricsPort>`
 * @throws Error when mvn cannot fetch the agent
 */
export async function kafkaMetricsAgentOption(
  component: string,
  nodeRoot: string,
  metricsPort: number,
): Promise<string> {
  if (!existsSync(agentJar))
    await withProgress(
      component,
      `downloading the JMX exporter ${jmxExporterVersion} with mvn`,
      () =>
        copyArtifact(
          component,
          `io.prometheus.jmx:jmx_prometheus_javaagent:${jmxExporterVersion}`,
          agentDirectory,
        ),
    );
  const config = join(nodeRoot, 'jmx-exporter.yaml');
  writeFileSync(config, kafkaMetricsConfig);
  return `-javaagent:${agentJar}=${host}:${metricsPort}:${config}`;
}
