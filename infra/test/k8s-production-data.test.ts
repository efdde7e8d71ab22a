/**
 * The production overlay's Kafka (Strimzi: KRaft nodes, metrics, topics, each app's KafkaUser
 * and its ACLs against the app's code) and Postgres (CloudNativePG: instances, databases and
 * roles, the Pooler, the connection arithmetic), as `kubectl kustomize` builds them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deadLetterTopic, topics } from '@raly/contracts/events';
import { describe, test } from 'vitest';
import { parse } from 'yaml';
import { ofKind, podTemplateOf, repository } from './support/kustomize';
import {
  built,
  servicesWithDatabase,
  flows,
  type Container,
  secretSources,
  configOf,
  codeFlows,
} from './support/overlays';

describe('k8s/overlays/production: Kafka (Strimzi)', () => {
  const objects = built.production;
  const kafkaTopics = ofKind(objects, 'KafkaTopic');

  test('when the cluster is read, then it runs in KRaft mode on one node pool of 3 controller-and-broker nodes with a SCRAM-SHA-512 TLS listener and ACLs', () => {
    const [kafka] = ofKind(objects, 'Kafka');
    assert.equal(kafka?.metadata.annotations?.['strimzi.io/kraft'], 'enabled');
    assert.equal(kafka.metadata.annotations?.['strimzi.io/node-pools'], 'enabled');
    const [pool] = ofKind(objects, 'KafkaNodePool');
    assert.equal(pool?.metadata.labels?.['strimzi.io/cluster'], kafka.metadata.name);
    assert.equal(pool.spec.replicas, 3);
    assert.deepEqual([...pool.spec.roles].sort(), ['broker', 'controller']);
    const listeners = kafka.spec.kafka.listeners as {
      tls: boolean;
      authentication?: { type: string };
      port: number;
    }[];
    assert.ok(
      listeners.every(
        (listener) => listener.tls && listener.authentication?.type === 'scram-sha-512',
      ),
    );
    assert.equal(kafka.spec.kafka.authorization.type, 'simple');
    assert.equal(
      configOf(objects).KAFKA_BROKERS,
      `${kafka.metadata.name}-kafka-bootstrap:${listeners[0]!.port}`,
    );
  });

  test('when the nodes run, then each exports partition health through the JMX exporter with the rules file the local scaled topology uses, Prometheus scrapes them and alerts on partitions under min ISR, under-replicated or offline', () => {
    const [kafka] = ofKind(objects, 'Kafka');
    const metricsConfig = kafka?.spec.kafka.metricsConfig as {
      type: string;
      valueFrom: { configMapKeyRef: { name: string; key: string } };
    };
    assert.equal(metricsConfig.type, 'jmxPrometheusExporter');
    const { name, key } = metricsConfig.valueFrom.configMapKeyRef;
    const configMap = ofKind(objects, 'ConfigMap').find(
      (candidate) => candidate.metadata.name === name,
    );
    const rulesFile = path.join(repository, 'k8s/overlays/production/kafka-metrics-config.yml');
    assert.equal(configMap?.data?.[key], readFileSync(rulesFile, 'utf8'));
    const rules = parse(readFileSync(rulesFile, 'utf8')) as { rules: { name: string }[] };
    assert.ok(rules.rules.some((rule) => rule.name === 'kafka_server_replicamanager_$1'));
    const [pool] = ofKind(objects, 'KafkaNodePool');
    const monitor = ofKind(objects, 'PodMonitor').find(
      (candidate) =>
        candidate.spec.selector.matchLabels?.['strimzi.io/pool-name'] === pool?.metadata.name,
    );
    assert.equal(monitor?.spec.podMetricsEndpoints[0].port, 'tcp-prometheus');
    const alerts = ofKind(objects, 'PrometheusRule').flatMap((rule) =>
      (rule.spec.groups as { rules: { alert?: string; expr: string }[] }[]).flatMap(
        (group) => group.rules,
      ),
    );
    for (const metric of [
      'kafka_server_replicamanager_underminisrpartitioncount',
      'kafka_server_replicamanager_underreplicatedpartitions',
      'kafka_controller_kafkacontroller_offlinepartitionscount',
    ])
      assert.ok(
        alerts.some((alert) => alert.expr.includes(metric)),
        `no alert reads ${metric}`,
      );
  });

  test('when the topics are read, then every Raly topic and its dead-letter topic exist with 3 replicas, min.insync.replicas 2 and at least 6 partitions', () => {
    const expected = Object.values(topics)
      .flatMap((topic) => [topic, deadLetterTopic(topic)])
      .sort();
    assert.deepEqual(kafkaTopics.map((topic) => topic.spec.topicName).sort(), expected);
    for (const topic of kafkaTopics) {
      assert.equal(topic.spec.replicas, 3, topic.spec.topicName);
      assert.equal(Number(topic.spec.config['min.insync.replicas']), 2, topic.spec.topicName);
      assert.ok(topic.spec.partitions >= 6, topic.spec.topicName);
      assert.equal(topic.metadata.labels?.['strimzi.io/cluster'], 'raly-kafka');
    }
  });

  test("when an app's KafkaUser is read, then its ACLs grant exactly the topics it writes and reads, their dead-letter topics and its consumer group", () => {
    const users = ofKind(objects, 'KafkaUser');
    for (const [app, { writes, reads }] of Object.entries(flows)) {
      const user = users.find((candidate) => candidate.metadata.name === app);
      assert.ok(user, `KafkaUser ${app}`);
      assert.equal(user.spec.authentication.type, 'scram-sha-512');
      const granted = (
        user.spec.authorization.acls as {
          resource: { type: string; name: string; patternType: string };
          operations: string[];
        }[]
      )
        .flatMap(({ resource, operations }) => {
          assert.equal(resource.patternType, 'literal', `${app}: ${resource.name}`);
          return operations.map((operation) => `${resource.type} ${resource.name} ${operation}`);
        })
        .sort();
      const expected = [
        ...writes.flatMap((topic) => [`topic ${topic} Write`, `topic ${topic} Describe`]),
        ...reads.flatMap((topic) => [`topic ${topic} Read`, `topic ${topic} Describe`]),
        ...reads.flatMap((topic) => [
          `topic ${deadLetterTopic(topic)} Write`,
          `topic ${deadLetterTopic(topic)} Describe`,
        ]),
        `group ${app} Read`,
      ].sort();
      assert.deepEqual(granted, expected, app);
    }
  });

  test("when an app's code is read, then the topics it writes and subscribes to are the ones its KafkaUser is granted", () => {
    for (const [app, expected] of Object.entries(flows)) {
      const code = codeFlows(app);
      assert.deepEqual(code.writes, [...expected.writes].sort(), `${app} writes`);
      assert.deepEqual(code.reads, [...expected.reads].sort(), `${app} reads`);
    }
  });

  test('when an app connects, then it authenticates as its KafkaUser with the password that user is created with', () => {
    const users = ofKind(objects, 'KafkaUser');
    for (const app of Object.keys(flows)) {
      const [container] = podTemplateOf(
        ofKind(objects, 'Deployment').find((object) => object.metadata.name === app)!,
      )!.spec.containers as Container[];
      const variable = (name: string) => container!.env?.find((entry) => entry.name === name);
      assert.equal(variable('KAFKA_SASL_USERNAME')?.value, app);
      const password = users.find((user) => user.metadata.name === app)!.spec.authentication
        .password.valueFrom.secretKeyRef;
      assert.deepEqual(variable('KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef, password);
    }
    const config = configOf(objects);
    assert.equal(config.KAFKA_SSL, 'true');
    assert.equal(config.KAFKA_SASL_MECHANISM, 'scram-sha-512');
  });
});

describe('k8s/overlays/production: Postgres (CloudNativePG)', () => {
  const objects = built.production;
  const [cluster] = ofKind(objects, 'Cluster');
  const [pooler] = ofKind(objects, 'Pooler');
  const databases = ofKind(objects, 'Database');
  const config = configOf(objects);

  test('when the cluster is read, then it has 3 instances, a database per service and Keycloak, each owned by its own login role', () => {
    assert.ok(cluster && cluster.spec.instances >= 3);
    const roles = cluster.spec.managed.roles as {
      name: string;
      login: boolean;
      passwordSecret: { name: string };
    }[];
    assert.deepEqual(databases.map((database) => database.spec.name).sort(), [
      'raly_brand',
      'raly_collaborations',
      'raly_identity',
      'raly_keycloak',
      'raly_media',
      'raly_moderation',
      'raly_notifications',
      'raly_offers',
    ]);
    const owners = databases.map((database) => database.spec.owner);
    assert.equal(new Set(owners).size, owners.length, 'one role per database');
    const sources = secretSources(objects);
    for (const database of databases) {
      assert.equal(database.spec.cluster.name, cluster.metadata.name);
      const role = roles.find((candidate) => candidate.name === database.spec.owner);
      assert.ok(role?.login, `${database.spec.name}: login role ${database.spec.owner}`);
      assert.ok(sources.get(role.passwordSecret.name)?.has('password'), role.passwordSecret.name);
    }
  });

  test('when a service connects, then it goes through the transaction-mode Pooler, while its migration Job goes to the primary', () => {
    assert.equal(pooler?.spec.cluster.name, cluster!.metadata.name);
    assert.equal(pooler.spec.type, 'rw');
    assert.equal(pooler.spec.pgbouncer.poolMode, 'transaction');
    const template = ofKind(objects, 'ExternalSecret').find(
      (object) => object.metadata.name === 'raly-secrets',
    )!.spec.target.template.data as Record<string, string>;
    // The Secret key each pod's DATABASE_URL comes from.
    const databaseKey = (kind: string, name: string) => {
      const owner = ofKind(objects, kind).find((object) => object.metadata.name === name);
      assert.ok(owner, `${kind} ${name}`);
      const [container] = podTemplateOf(owner)!.spec.containers as Container[];
      const key = container!.env?.find((entry) => entry.name === 'DATABASE_URL')?.valueFrom
        ?.secretKeyRef?.key;
      assert.ok(key, `${kind} ${name}: DATABASE_URL from a Secret`);
      return key;
    };
    for (const app of servicesWithDatabase) {
      assert.match(
        template[databaseKey('Deployment', app)] ?? '',
        new RegExp(`@${pooler.metadata.name}:5432/`),
        `Deployment ${app}`,
      );
      assert.match(
        template[databaseKey('Job', `${app}-migrate`)] ?? '',
        new RegExp(`@${cluster!.metadata.name}-rw:5432/`),
        `Job ${app}-migrate`,
      );
    }
  });

  test('when every service runs at its maximum replicas, then the Pooler and Postgres have the connections (docs/operations.md "Postgres connections")', () => {
    const poolMax = Number(config.DATABASE_POOL_MAX);
    const autoscalers = ofKind(objects, 'HorizontalPodAutoscaler');
    const clients = servicesWithDatabase.reduce(
      (sum, app) =>
        sum +
        autoscalers.find((object) => object.metadata.name === app)!.spec.maxReplicas * poolMax,
      0,
    );
    const parameters = pooler!.spec.pgbouncer.parameters as Record<string, string>;
    // Clients spread over the Pooler's instances, but one instance may be down: each takes them all.
    assert.ok(
      clients <= Number(parameters.max_client_conn),
      `${clients} client connections ≤ max_client_conn`,
    );
    const [keycloak] = ofKind(objects, 'Keycloak');
    const server =
      pooler!.spec.instances * servicesWithDatabase.length * Number(parameters.default_pool_size) +
      keycloak!.spec.instances * keycloak!.spec.db.poolMaxSize +
      servicesWithDatabase.length; // one migration Job each
    const reserved = 10; // superuser connections, the operator, replication and monitoring
    assert.ok(
      server + reserved <= Number(cluster!.spec.postgresql.parameters.max_connections),
      `${server} + ${reserved} server connections ≤ max_connections`,
    );
    const docs = readFileSync(path.join(repository, 'docs', 'operations.md'), 'utf8');
    assert.match(docs, new RegExp(`DATABASE_POOL_MAX=${poolMax}\\b`));
  });
});
