/**
 * The Kubernetes overlays (issue 12; docs/operations.md "What CI validates") as
 * `kubectl kustomize k8s/overlays/<dev|production>` builds them, checked object by object:
 *
 * - Schemas: every core, apps, batch, policy, autoscaling and networking object, every Gateway
 *   API route, ExternalSecret/SecretStore and Prometheus Operator object validates against the
 *   schema the npm registry ships (kubernetes-models and @kubernetes-models/*; support/schemas.ts).
 *   No registry here ships the CRD schemas of Strimzi, CloudNativePG or the Keycloak Operator:
 *   their resources are checked against the fields the operators' documentation gives for the
 *   versions docs/operations.md names (support/operator-resources.ts), and by the policies below.
 * - Policies: what the overlays must hold — no Secret with committed data; every Deployment with
 *   probes, resources, its own ServiceAccount without an API token, a NetworkPolicy selecting it,
 *   a preStop drain; restricted Pod Security; every topic with its dead-letter topic; each app's
 *   KafkaUser ACLs equal to the topics its code writes and reads; secrets only from
 *   ExternalSecrets in production; the host names, the realm import and the connection
 *   arithmetic consistent with each other.
 *
 * Nothing is applied to a cluster (none runs here): what only the API server, the admission
 * webhooks or the operators would refuse is out of reach (docs/operations.md).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { deadLetterTopic, topics } from '@raly/contracts/events';
import { serviceClientIds } from '@raly/contracts/internal';
import { describe, test } from 'vitest';
import { parse } from 'yaml';
import {
  productionRealmEnvironment,
  readRealm,
  realmImportFile,
  realmImportFor,
} from '../src/k8s/realm-import';
import {
  buildOverlay,
  labelSelectorMatches,
  ofKind,
  overlayNames,
  podTemplateOf,
  repository,
  type K8sObject,
  type OverlayName,
} from './support/kustomize';
import { hasOperatorShape, operatorShapeErrors } from './support/operator-resources';
import { hasRegistrySchema, registrySchemaErrors } from './support/schemas';

const built = Object.fromEntries(overlayNames.map((name) => [name, buildOverlay(name)])) as Record<
  OverlayName,
  K8sObject[]
>;

/** Raly's apps: each a Deployment of that name in k8s/base. */
const apps = ['identity-profile', 'brand', 'media', 'offers', 'bff', 'web'] as const;
const nodeApps = apps.filter((app) => app !== 'web');
const servicesWithDatabase = ['identity-profile', 'brand', 'media', 'offers'];

/**
 * Which topics each app writes (its outbox) and reads (its consumer group, named like the app).
 * The KafkaUsers' ACLs must grant exactly these; the code must use exactly these.
 */
const flows: Record<string, { writes: string[]; reads: string[] }> = {
  'identity-profile': { writes: [topics.identityUser], reads: [topics.mediaImage] },
  brand: { writes: [topics.brandBrand], reads: [topics.mediaImage] },
  media: { writes: [topics.mediaImage], reads: [topics.identityUser, topics.brandBrand] },
  offers: {
    writes: [topics.offersOffer, topics.offersApplication],
    reads: [topics.identityUser, topics.brandBrand],
  },
  bff: {
    writes: [],
    reads: [topics.identityUser, topics.brandBrand, topics.offersOffer, topics.offersApplication],
  },
};

/** Secrets the operators write themselves (not ExternalSecrets), by name → keys. */
const OPERATOR_SECRETS: Record<string, string[]> = {
  // Strimzi's cluster operator: the CA that signed the brokers' certificates.
  'raly-kafka-cluster-ca-cert': ['ca.crt'],
};

/** @returns every pod template of the overlay with the name of its owner */
const podTemplates = (objects: K8sObject[]) =>
  objects
    .filter((object) => podTemplateOf(object)?.spec)
    .map((object) => ({
      owner: `${object.kind} ${object.metadata.name}`,
      template: podTemplateOf(object)!,
    }));

type Container = {
  name: string;
  image: string;
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string; optional?: boolean };
      configMapKeyRef?: { name: string; key: string };
    };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  securityContext?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
};

const containersOf = (template: {
  spec: { containers: Container[]; initContainers?: Container[] };
}) => [...(template.spec.initContainers ?? []), ...template.spec.containers];

/** A generated name (`raly-config-5f7h…`) back to the name in the manifests. */
const baseName = (name: string) => name.replace(/-[a-z0-9]{10}$/, '');

/** @returns the Secrets of the overlay: name → keys they will hold once the cluster has them */
function secretSources(objects: K8sObject[]): Map<string, Set<string>> {
  const sources = new Map<string, Set<string>>();
  for (const secret of ofKind(objects, 'Secret'))
    sources.set(
      secret.metadata.name,
      new Set(Object.keys({ ...secret.data, ...secret.stringData })),
    );
  for (const external of ofKind(objects, 'ExternalSecret')) {
    const target = external.spec.target as {
      name?: string;
      template?: { data?: Record<string, string> };
    };
    const keys = target.template?.data
      ? Object.keys(target.template.data)
      : (external.spec.data as { secretKey: string }[]).map((entry) => entry.secretKey);
    sources.set(target.name ?? external.metadata.name, new Set(keys));
  }
  for (const [name, keys] of Object.entries(OPERATOR_SECRETS)) sources.set(name, new Set(keys));
  return sources;
}

/** @returns the `raly-config` literals of the overlay's build (the merged ConfigMap) */
/** A client of the realm import, with the fields the policy tests read. */
type RealmClient = {
  clientId: string;
  secret?: string;
  publicClient?: boolean;
  standardFlowEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  directAccessGrantsEnabled?: boolean;
  protocolMappers?: { protocolMapper: string; config: Record<string, string> }[];
};

/** The clients of an overlay's `KeycloakRealmImport` and the Secret keys its placeholders name. */
function realmClientsOf(objects: K8sObject[]) {
  const [realmImport] = ofKind(objects, 'KeycloakRealmImport');
  return {
    clients: realmImport!.spec.realm.clients as RealmClient[],
    placeholders: realmImport!.spec.placeholders as Record<
      string,
      { secret: { name: string; key: string } }
    >,
  };
}

/** The Secret (name without kustomize's hash) and key a Deployment's env variable is taken from. */
function secretReferenceOf(objects: K8sObject[], app: string, variable: string) {
  const deployment = ofKind(objects, 'Deployment').find((object) => object.metadata.name === app);
  assert.ok(deployment, `Deployment ${app}`);
  const [container] = containersOf(podTemplateOf(deployment)!);
  const reference = container!.env?.find((entry) => entry.name === variable)?.valueFrom
    ?.secretKeyRef;
  return reference && { name: baseName(reference.name), key: reference.key };
}

const configOf = (objects: K8sObject[]) => {
  const config = ofKind(objects, 'ConfigMap').find(
    (object) => baseName(object.metadata.name) === 'raly-config',
  );
  assert.ok(config, 'the ConfigMap raly-config');
  return config.data!;
};

for (const overlay of overlayNames) {
  const objects = built[overlay];
  const deploymentOf = (app: string) => {
    const deployment = ofKind(objects, 'Deployment').find((object) => object.metadata.name === app);
    assert.ok(deployment, `${overlay}: Deployment ${app}`);
    return deployment;
  };

  describe(`k8s/overlays/${overlay}`, () => {
    test('when it is built, then every object validates against its registry schema or the documented fields of its operator', () => {
      const problems: string[] = [];
      let registry = 0;
      for (const object of objects) {
        const name = `${object.apiVersion} ${object.kind} ${object.metadata.name}`;
        if (hasRegistrySchema(object)) {
          registry += 1;
          problems.push(...registrySchemaErrors(object).map((error) => `${name}: ${error}`));
        } else if (hasOperatorShape(object)) {
          problems.push(...operatorShapeErrors(object).map((error) => `${name}: ${error}`));
        } else {
          problems.push(
            `${name}: no schema (neither a registry model nor documented operator fields)`,
          );
        }
      }
      assert.deepEqual(problems, []);
      assert.ok(registry >= 40, `${registry} objects checked against registry schemas`);
    });

    test('when it is built, then every object lands in the namespace raly, whose pods must meet the restricted Pod Security profile', () => {
      const [namespace, ...others] = ofKind(objects, 'Namespace');
      assert.equal(others.length, 0);
      assert.equal(namespace?.metadata.name, 'raly');
      assert.equal(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce'], 'restricted');
      for (const object of objects.filter((candidate) => candidate.kind !== 'Namespace'))
        assert.equal(object.metadata.namespace, 'raly', `${object.kind} ${object.metadata.name}`);
    });

    test('when a pod is created, then it meets the restricted profile (non-root, no escalation, every capability dropped, RuntimeDefault seccomp, no host access)', () => {
      for (const { owner, template } of podTemplates(objects)) {
        const pod = template.spec;
        assert.notEqual(pod.hostNetwork, true, owner);
        assert.notEqual(pod.hostPID, true, owner);
        for (const volume of pod.volumes ?? [])
          assert.ok(!('hostPath' in volume), `${owner}: hostPath`);
        for (const container of containersOf(template)) {
          const at = `${owner} / ${container.name}`;
          const context = container.securityContext ?? {};
          assert.equal(
            context.runAsNonRoot ?? pod.securityContext?.runAsNonRoot,
            true,
            `${at}: runAsNonRoot`,
          );
          assert.notEqual(
            context.runAsUser ?? pod.securityContext?.runAsUser,
            0,
            `${at}: runAsUser 0`,
          );
          assert.equal(context.allowPrivilegeEscalation, false, `${at}: allowPrivilegeEscalation`);
          assert.notEqual(context.privileged, true, `${at}: privileged`);
          assert.deepEqual(context.capabilities?.drop, ['ALL'], `${at}: capabilities.drop`);
          assert.deepEqual(context.capabilities?.add ?? [], [], `${at}: capabilities.add`);
          const seccomp = context.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type;
          assert.equal(seccomp, 'RuntimeDefault', `${at}: seccompProfile`);
        }
      }
    });

    test('when it is built, then no Secret with committed data is in it', () => {
      const secrets = ofKind(objects, 'Secret');
      if (overlay === 'production') {
        assert.deepEqual(
          secrets.map((secret) => secret.metadata.name),
          [],
          'production takes every secret from ExternalSecrets',
        );
        return;
      }
      // dev: only the Secret kustomize generates from secrets.env, which git ignores.
      assert.deepEqual(
        secrets.map((secret) => baseName(secret.metadata.name)),
        ['raly-secrets'],
      );
      const ignored = execFileSync('git', ['check-ignore', 'k8s/overlays/dev/secrets.env'], {
        cwd: repository,
        encoding: 'utf8',
      });
      assert.equal(ignored.trim(), 'k8s/overlays/dev/secrets.env');
    });

    test('when a pod reads a Secret or ConfigMap key, then the overlay provides that key', () => {
      const secrets = secretSources(objects);
      const configMaps = new Map(
        ofKind(objects, 'ConfigMap').map((configMap) => [
          configMap.metadata.name,
          new Set(Object.keys(configMap.data ?? {})),
        ]),
      );
      // Created by hand before the dev overlay is applied (k8s/README.md).
      configMaps.set('raly-realm', new Set());
      for (const { owner, template } of podTemplates(objects)) {
        for (const container of containersOf(template)) {
          for (const variable of container.env ?? []) {
            const secret = variable.valueFrom?.secretKeyRef;
            const configMap = variable.valueFrom?.configMapKeyRef;
            if (secret)
              assert.ok(
                secrets.get(secret.name)?.has(secret.key),
                `${owner}: ${variable.name} ← Secret ${secret.name}.${secret.key}`,
              );
            if (configMap)
              assert.ok(
                configMaps.get(configMap.name)?.has(configMap.key),
                `${owner}: ${variable.name} ← ConfigMap ${configMap.name}.${configMap.key}`,
              );
          }
          for (const source of container.envFrom ?? []) {
            if (source.configMapRef)
              assert.ok(
                configMaps.has(source.configMapRef.name),
                `${owner}: ${source.configMapRef.name}`,
              );
            if (source.secretRef)
              assert.ok(secrets.has(source.secretRef.name), `${owner}: ${source.secretRef.name}`);
          }
        }
        for (const volume of template.spec.volumes ?? []) {
          if (volume.secret)
            for (const item of volume.secret.items ?? [{ key: undefined }])
              assert.ok(
                secrets.has(volume.secret.secretName) &&
                  (item.key === undefined || secrets.get(volume.secret.secretName)!.has(item.key)),
                `${owner}: volume ${volume.name} ← Secret ${volume.secret.secretName}`,
              );
          if (volume.configMap)
            assert.ok(configMaps.has(volume.configMap.name), `${owner}: volume ${volume.name}`);
        }
      }
    });

    test('when it is built, then a default-deny NetworkPolicy covers every pod and only DNS is open to all', () => {
      const policies = ofKind(objects, 'NetworkPolicy');
      const deny = policies.find((policy) => policy.metadata.name === 'default-deny');
      assert.ok(deny, 'default-deny');
      assert.deepEqual(deny.spec.podSelector, {});
      assert.deepEqual([...deny.spec.policyTypes].sort(), ['Egress', 'Ingress']);
      assert.equal(deny.spec.ingress, undefined);
      assert.equal(deny.spec.egress, undefined);
      for (const policy of policies.filter(
        (candidate) => Object.keys(candidate.spec.podSelector).length === 0,
      )) {
        if (
          ['default-deny', 'allow-dns', 'dev-apps-to-infrastructure'].includes(policy.metadata.name)
        )
          continue;
        assert.fail(`${policy.metadata.name} opens flows for every pod`);
      }
    });

    for (const app of apps) {
      describe(`Deployment ${app}`, () => {
        const deployment = deploymentOf(app);
        const template = podTemplateOf(deployment)!;
        const pod = template.spec;
        const [container] = template.spec.containers as Container[];
        const labels = template.metadata?.labels ?? {};

        test("when it runs, then readiness and liveness probes watch it (the kit's /health/ready and /health/live on a Node app)", () => {
          assert.ok(
            container?.readinessProbe && container.livenessProbe,
            'readinessProbe and livenessProbe',
          );
          if (app !== 'web') {
            assert.equal(container.readinessProbe.httpGet?.path, '/health/ready');
            assert.equal(container.livenessProbe.httpGet?.path, '/health/live');
          }
        });

        test('when it is scheduled, then its container has cpu and memory requests and limits', () => {
          for (const kind of ['requests', 'limits'] as const)
            for (const resource of ['cpu', 'memory'])
              assert.ok(container?.resources?.[kind]?.[resource], `resources.${kind}.${resource}`);
        });

        test('when it runs, then it is its own ServiceAccount and no API token is mounted', () => {
          assert.equal(pod.serviceAccountName, app);
          assert.equal(pod.automountServiceAccountToken, false);
          const account = ofKind(objects, 'ServiceAccount').find(
            (object) => object.metadata.name === app,
          );
          assert.ok(account, `ServiceAccount ${app}`);
          assert.equal(account.automountServiceAccountToken, false);
        });

        test('when it runs, then a NetworkPolicy of its own selects it (besides default-deny)', () => {
          const own = ofKind(objects, 'NetworkPolicy').filter(
            (policy) =>
              Object.keys(policy.spec.podSelector).length > 0 &&
              labelSelectorMatches(policy.spec.podSelector, labels),
          );
          assert.ok(
            own.some((policy) => policy.metadata.name === app),
            `NetworkPolicy ${app}`,
          );
        });

        test('when it is stopped, then a preStop sleep drains it first, within the grace period', () => {
          const seconds = container?.lifecycle?.preStop?.sleep?.seconds;
          assert.ok(seconds && seconds >= 5, 'preStop sleep of at least 5 s');
          assert.ok(
            (pod.terminationGracePeriodSeconds ?? 30) > seconds + 5,
            'time left for the app to stop',
          );
          if (app === 'web') return;
          // The Node apps then drain (services/kit lifecycle, docs/operations.md "Shutdown"):
          // readiness 503 for the drain delay, then requests in flight for at most the timeout.
          const config = configOf(objects);
          const drainMs = Number(config.SHUTDOWN_DRAIN_DELAY_MS);
          const timeoutMs = Number(config.SHUTDOWN_TIMEOUT_MS);
          assert.ok(
            drainMs > 0 && timeoutMs > 0,
            'SHUTDOWN_DRAIN_DELAY_MS and SHUTDOWN_TIMEOUT_MS',
          );
          assert.ok(
            (pod.terminationGracePeriodSeconds ?? 30) >= seconds + (drainMs + timeoutMs) / 1000 + 3,
            'the grace period covers preStop, the drain delay, the request timeout and the close',
          );
        });

        test('when its pods are placed, then they spread over zones and nodes, and a PodDisruptionBudget keeps all but one', () => {
          const keys = (pod.topologySpreadConstraints ?? []).map(
            (constraint: { topologyKey: string }) => constraint.topologyKey,
          );
          assert.deepEqual(keys, ['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
          const budget = ofKind(objects, 'PodDisruptionBudget').find((object) =>
            labelSelectorMatches(object.spec.selector, labels),
          );
          assert.equal(budget?.spec.maxUnavailable, 1);
        });

        test('when it is scaled, then its HorizontalPodAutoscaler keeps at least 2 replicas (the BFF 3 in production)', () => {
          const autoscaler = ofKind(objects, 'HorizontalPodAutoscaler').find(
            (object) => object.spec.scaleTargetRef.name === app,
          );
          assert.ok(autoscaler, 'HorizontalPodAutoscaler');
          const least = app === 'bff' && overlay === 'production' ? 3 : 2;
          assert.ok(autoscaler.spec.minReplicas >= least, `minReplicas ≥ ${least}`);
        });
      });
    }

    test('when the BFF autoscaler is read, then it reacts to sockets and event-loop lag (custom per-pod metrics) besides CPU', () => {
      const autoscaler = ofKind(objects, 'HorizontalPodAutoscaler').find(
        (object) => object.metadata.name === 'bff',
      );
      const metrics = (autoscaler?.spec.metrics ?? []) as {
        type: string;
        resource?: { name: string };
        pods?: { metric: { name: string } };
      }[];
      assert.ok(
        metrics.some((metric) => metric.type === 'Resource' && metric.resource?.name === 'cpu'),
      );
      assert.deepEqual(
        metrics
          .filter((metric) => metric.type === 'Pods')
          .map((metric) => metric.pods!.metric.name)
          .sort(),
        ['nodejs_eventloop_lag_p99_seconds', 'raly_bff_live_sockets'],
      );
    });

    test('when a service with a database is deployed, then its migration Job can run again on every deploy (Argo CD hook), goes after a TTL and has a fixed name', () => {
      for (const app of servicesWithDatabase) {
        const job = ofKind(objects, 'Job').find(
          (object) => object.metadata.name === `${app}-migrate`,
        );
        assert.ok(job, `Job ${app}-migrate`);
        assert.equal(job.metadata.generateName, undefined);
        assert.equal(job.metadata.annotations?.['argocd.argoproj.io/hook'], 'PreSync');
        assert.equal(
          job.metadata.annotations?.['argocd.argoproj.io/hook-delete-policy'],
          'BeforeHookCreation',
        );
        assert.ok(job.spec.ttlSecondsAfterFinished > 0, 'ttlSecondsAfterFinished');
        const [migrate] = job.spec.template.spec.containers as Container[];
        assert.equal(migrate?.image.replace(/:[^:]+$/, ''), `raly/${app}-migrate`);
      }
    });
  });
}

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
      'raly_identity',
      'raly_keycloak',
      'raly_media',
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
    for (const prefix of ['IDENTITY', 'BRAND', 'MEDIA', 'OFFERS']) {
      assert.match(
        template[`${prefix}_DATABASE_URL`] ?? '',
        new RegExp(`@${pooler.metadata.name}:5432/`),
      );
      assert.match(
        template[`${prefix}_MIGRATION_DATABASE_URL`] ?? '',
        new RegExp(`@${cluster!.metadata.name}-rw:5432/`),
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

describe('k8s/overlays/production: sign-in, routes, secrets and monitoring', () => {
  const objects = built.production;
  const config = configOf(objects);
  const routes = ofKind(objects, 'HTTPRoute');
  const services = ofKind(objects, 'Service');

  test('when the browser uses the public host names, then the routes, the configuration, the Keycloak resource and the realm agree on them', () => {
    const web = new URL(config.WEB_URL!);
    const keycloakUrl = new URL(config.KEYCLOAK_PUBLIC_URL!);
    assert.equal(web.protocol, 'https:');
    assert.equal(keycloakUrl.protocol, 'https:');
    assert.equal(config.CORS_ORIGIN, web.origin);
    assert.equal(config.MEDIA_PUBLIC_URL, web.origin);
    const hostsOf = (name: string) =>
      routes.find((route) => route.metadata.name === name)?.spec.hostnames;
    assert.deepEqual(hostsOf('raly'), [web.hostname]);
    assert.deepEqual(hostsOf('raly-live'), [web.hostname]);
    assert.deepEqual(hostsOf('keycloak'), [keycloakUrl.hostname]);
    const [keycloak] = ofKind(objects, 'Keycloak');
    assert.equal(keycloak?.spec.hostname.hostname, keycloakUrl.origin);
    const [realmImport] = ofKind(objects, 'KeycloakRealmImport');
    assert.equal(realmImport?.spec.keycloakCRName, keycloak.metadata.name);
    const client = (
      realmImport.spec.realm.clients as {
        clientId: string;
        redirectUris: string[];
        webOrigins: string[];
      }[]
    ).find((candidate) => candidate.clientId === 'raly-web');
    assert.deepEqual(client?.redirectUris, [`${web.origin}/*`]);
    assert.deepEqual(client.webOrigins, [web.origin]);
    assert.equal(
      config.KEYCLOAK_URL,
      `http://${keycloak.metadata.name}-service:${keycloak.spec.http.httpPort}`,
    );
  });

  test('when the realm import is read, then it is what infra/src/k8s/realm-import.ts generates from infra/keycloak/raly-realm.json (run npm run k8s:realm-import -w infra)', () => {
    const committed = parse(readFileSync(realmImportFile, 'utf8'));
    assert.deepEqual(committed, realmImportFor(readRealm(), productionRealmEnvironment()));
    const realm = JSON.stringify(committed.spec.realm);
    assert.doesNotMatch(realm, /localhost|127\.0\.0\.1/, 'no local URL');
    assert.doesNotMatch(realm, /\$\{[A-Z_]+:[^}]*\}/, 'no placeholder with a development default');
    for (const name of realm.match(/\$\{([A-Z_]+)\}/g) ?? [])
      assert.ok(
        name.slice(2, -1) in committed.spec.placeholders,
        `${name} has a placeholder Secret`,
      );
  });

  test('when a request comes in, then / goes to web, /api and /live to the BFF, /files to media, and Keycloak serves only /realms/ and /resources/ publicly', () => {
    const table = new Map<string, string>();
    for (const route of routes)
      for (const rule of route.spec.rules as {
        matches: { path: { value: string } }[];
        backendRefs: { name: string; port: number }[];
      }[])
        for (const match of rule.matches) {
          const [backend] = rule.backendRefs;
          const known =
            backend!.name === 'raly-keycloak-service' ||
            services.some(
              (service) =>
                service.metadata.name === backend!.name &&
                service.spec.ports.some((port: { port: number }) => port.port === backend!.port),
            );
          assert.ok(
            known,
            `${route.metadata.name} ${match.path.value}: ${backend!.name}:${backend!.port}`,
          );
          table.set(`${route.spec.hostnames[0]}${match.path.value}`, backend!.name);
        }
    const web = new URL(config.WEB_URL!).hostname;
    const auth = new URL(config.KEYCLOAK_PUBLIC_URL!).hostname;
    assert.deepEqual(Object.fromEntries(table), {
      [`${web}/`]: 'web',
      [`${web}/api`]: 'bff',
      [`${web}/live`]: 'bff',
      [`${web}/files`]: 'media',
      [`${auth}/realms/`]: 'raly-keycloak-service',
      [`${auth}/resources/`]: 'raly-keycloak-service',
    });
  });

  test('when a secret is needed, then an ExternalSecret of the SecretStore brings it (or the operator writes it)', () => {
    const stores = ofKind(objects, 'SecretStore').map((store) => store.metadata.name);
    const externals = ofKind(objects, 'ExternalSecret');
    assert.ok(externals.length > 0);
    for (const external of externals) {
      assert.equal(external.spec.secretStoreRef.kind, 'SecretStore');
      assert.ok(stores.includes(external.spec.secretStoreRef.name), external.metadata.name);
    }
    const sources = secretSources(objects);
    const referenced = [
      ...ofKind(objects, 'KafkaUser').map(
        (user) => user.spec.authentication.password.valueFrom.secretKeyRef,
      ),
      ...ofKind(objects, 'Keycloak').flatMap((keycloak) => [
        keycloak.spec.db.usernameSecret,
        keycloak.spec.db.passwordSecret,
      ]),
      ...ofKind(objects, 'Keycloak').flatMap((keycloak) => [
        { name: keycloak.spec.bootstrapAdmin.user.secret, key: 'username' },
        { name: keycloak.spec.bootstrapAdmin.user.secret, key: 'password' },
      ]),
      ...ofKind(objects, 'KeycloakRealmImport').flatMap((realmImport) =>
        Object.values(
          realmImport.spec.placeholders as Record<
            string,
            { secret: { name: string; key: string } }
          >,
        ).map(({ secret }) => secret),
      ),
      ...ofKind(objects, 'ObjectStore').flatMap(
        (store) =>
          Object.values(store.spec.configuration.s3Credentials) as { name: string; key: string }[],
      ),
    ];
    for (const { name, key } of referenced)
      assert.ok(sources.get(name)?.has(key), `${name}.${key}`);
  });

  test("when a service calls another, then it authenticates as its own realm client: the Deployment's client secret is the Secret key the realm import fills that client from, and the client's audience names exactly the services it calls", () => {
    const { clients, placeholders } = realmClientsOf(objects);
    // Who calls whom (the data-access clients of services/*/src and bff/src).
    const calls: Record<string, { client: string; calls: string[] }> = {
      bff: { client: serviceClientIds.bff, calls: [serviceClientIds.identity] },
      'identity-profile': { client: serviceClientIds.identity, calls: [serviceClientIds.brand] },
      brand: { client: serviceClientIds.brand, calls: [serviceClientIds.identity] },
      media: { client: serviceClientIds.media, calls: [serviceClientIds.brand] },
    };
    for (const [app, { client: clientId, calls: callees }] of Object.entries(calls)) {
      const client = clients.find((candidate) => candidate.clientId === clientId);
      assert.ok(client, `realm client ${clientId}`);
      assert.equal(client.serviceAccountsEnabled, true, `${clientId} has a service account`);
      assert.equal(client.directAccessGrantsEnabled, false, `${clientId} signs no user in`);
      const audiences = (client.protocolMappers ?? [])
        .filter((mapper) => mapper.protocolMapper === 'oidc-audience-mapper')
        .map((mapper) => mapper.config['included.client.audience']);
      assert.deepEqual(audiences, callees, `${clientId} may call exactly ${callees.join(', ')}`);
      const placeholder = /^\$\{([A-Z_]+)\}$/.exec(client.secret ?? '')?.[1];
      assert.ok(placeholder, `${clientId}'s secret is a placeholder`);
      assert.deepEqual(
        secretReferenceOf(objects, app, 'KEYCLOAK_SERVICE_CLIENT_SECRET'),
        placeholders[placeholder]!.secret,
        `${app}: KEYCLOAK_SERVICE_CLIENT_SECRET is the secret of ${clientId}`,
      );
    }
  });

  test("when a user signs in, then only the BFF's confidential sign-in client may use the password grant: its secret is the Secret key the realm import fills it from, its tokens are for raly-bff, and the public web client has direct access grants off (docs/adr/0009)", () => {
    const { clients, placeholders } = realmClientsOf(objects);
    const login = clients.find((client) => client.clientId === 'raly-bff-login');
    assert.ok(login, 'realm client raly-bff-login');
    assert.equal(login.publicClient, false, 'confidential');
    assert.equal(login.standardFlowEnabled, false, 'no browser flow');
    assert.equal(login.serviceAccountsEnabled, false, 'no service account: its tokens are users');
    const audiences = (login.protocolMappers ?? [])
      .filter((mapper) => mapper.protocolMapper === 'oidc-audience-mapper')
      .map((mapper) => mapper.config['included.client.audience']);
    assert.deepEqual(audiences, ['raly-bff']);
    const placeholder = /^\$\{([A-Z_]+)\}$/.exec(login.secret ?? '')?.[1];
    assert.ok(placeholder, "raly-bff-login's secret is a placeholder");
    assert.deepEqual(
      secretReferenceOf(objects, 'bff', 'KEYCLOAK_LOGIN_CLIENT_SECRET'),
      placeholders[placeholder]!.secret,
      'bff: KEYCLOAK_LOGIN_CLIENT_SECRET is the secret of raly-bff-login',
    );
    const passwordGrants = clients
      .filter((client) => client.directAccessGrantsEnabled === true)
      .map((client) => client.clientId);
    assert.deepEqual(passwordGrants, ['raly-bff-login'], 'no other client takes passwords');
  });

  test('when a service fetches client-credentials tokens, then NetworkPolicies let it reach Keycloak on 8080 and Keycloak admit it', () => {
    const policies = ofKind(objects, 'NetworkPolicy');
    type Selector = {
      matchLabels?: Record<string, string>;
      matchExpressions?: { key: string; operator: string; values: string[] }[];
    };
    const selectsApp = (selector: Selector | undefined, app: string) =>
      !!selector &&
      (selector.matchLabels?.app === app ||
        (selector.matchExpressions ?? []).some(
          (expression) =>
            expression.key === 'app' &&
            expression.operator === 'In' &&
            expression.values.includes(app),
        ));
    type Rule = {
      to?: { podSelector?: Selector }[];
      from?: { podSelector?: Selector }[];
      ports?: { port: number }[];
    };
    for (const app of ['bff', 'identity-profile', 'brand', 'media']) {
      const egress = policies.some(
        (policy) =>
          selectsApp(policy.spec.podSelector, app) &&
          ((policy.spec.egress ?? []) as Rule[]).some(
            (rule) =>
              (rule.to ?? []).some((peer) => selectsApp(peer.podSelector, 'keycloak')) &&
              (rule.ports ?? []).some((port) => port.port === 8080),
          ),
      );
      assert.ok(egress, `${app} → keycloak:8080`);
      const ingress = policies.some(
        (policy) =>
          selectsApp(policy.spec.podSelector, 'keycloak') &&
          ((policy.spec.ingress ?? []) as Rule[]).some(
            (rule) =>
              (rule.from ?? []).some((peer) => selectsApp(peer.podSelector, app)) &&
              (rule.ports ?? []).some((port) => port.port === 8080),
          ),
      );
      assert.ok(ingress, `keycloak admits ${app} on 8080`);
    }
  });

  test('when the apps start, then they run in production mode (NODE_ENV=production: no development secret accepted)', () => {
    assert.equal(config.NODE_ENV, 'production');
    assert.equal(configOf(built.dev).NODE_ENV, 'development');
  });

  test('when Prometheus reads the overlay, then it scrapes every Node app and alerts on consumer lag, dead letters, outbox age, 5xx rate, sockets and event-loop lag with the metric names docs/operations.md lists', () => {
    for (const app of nodeApps) {
      const monitor = ofKind(objects, 'ServiceMonitor').find(
        (object) => object.metadata.name === app,
      );
      assert.deepEqual(monitor?.spec.selector.matchLabels, { app }, app);
      assert.equal(monitor.spec.endpoints[0].path, '/metrics');
    }
    const [rule] = ofKind(objects, 'PrometheusRule');
    const alerts = (rule?.spec.groups as { rules: { alert: string; expr: string }[] }[]).flatMap(
      (group) => group.rules,
    );
    assert.deepEqual(alerts.map((alert) => alert.alert).sort(), [
      'RalyBffEventLoopLag',
      'RalyBffSocketsHigh',
      'RalyConsumerLagHigh',
      'RalyDeadLetters',
      'RalyHttp5xxRate',
      'RalyKafkaOfflinePartitions',
      'RalyKafkaUnderMinIsr',
      'RalyKafkaUnderReplicated',
      'RalyOutboxStale',
    ]);
    const docs = readFileSync(path.join(repository, 'docs', 'operations.md'), 'utf8');
    const metricNames = alerts.flatMap(
      (alert) => alert.expr.match(/\b[a-z][a-z0-9_]*(?=\{)/g) ?? [],
    );
    assert.ok(metricNames.length >= 6);
    for (const name of metricNames)
      assert.ok(docs.includes(`\`${name}\``), `docs/operations.md lists ${name}`);
  });
});

describe('k8s/overlays/dev: in-cluster infrastructure', () => {
  const objects = built.dev;

  test('when the topics Job runs, then it creates every Raly topic and its dead-letter topic', () => {
    const job = ofKind(objects, 'Job').find((object) => object.metadata.name === 'kafka-topics');
    const script = (job?.spec.template.spec.containers[0].args as string[]).join('\n');
    for (const topic of Object.values(topics)) assert.ok(script.includes(topic), topic);
    assert.match(script, /"\$topic\.dlq"/);
  });

  test('when Postgres starts, then it creates every service database', () => {
    const init = ofKind(objects, 'ConfigMap').find(
      (object) => baseName(object.metadata.name) === 'postgres-init',
    );
    for (const database of [
      'raly_identity',
      'raly_brand',
      'raly_media',
      'raly_offers',
      'raly_keycloak',
    ])
      assert.match(init?.data?.['raly.sql'] ?? '', new RegExp(`create database ${database};`));
  });
});

describe('k8s/ files', () => {
  test('when a YAML file is under k8s/, then a kustomization lists it (no file is left out of every build)', () => {
    const listed = new Set<string>();
    const kustomizations: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name === 'kustomization.yaml') kustomizations.push(full);
        else if (/\.ya?ml$/.test(entry.name)) listed.add(full);
      }
    };
    walk(path.join(repository, 'k8s'));
    for (const file of kustomizations) {
      const kustomization = parse(readFileSync(file, 'utf8')) as {
        resources?: string[];
        patches?: { path?: string }[];
        configMapGenerator?: { files?: string[] }[];
      };
      for (const entry of [
        ...(kustomization.resources ?? []),
        ...(kustomization.patches ?? []).flatMap((patch) => (patch.path ? [patch.path] : [])),
        ...(kustomization.configMapGenerator ?? []).flatMap((generator) => generator.files ?? []),
      ])
        listed.delete(path.resolve(path.dirname(file), entry));
    }
    assert.deepEqual(
      [...listed].map((file) => path.relative(repository, file)),
      [],
    );
  });
});

/**
 * The topics an app's code writes (`topic: topics.X` in its sources, the outbox events) and
 * subscribes to (`on(topics.X, …)` in src/messaging/subscriptions.ts).
 * @returns sorted topic names; empty lists when the app's sources are not on this branch
 */
function codeFlows(app: string): { writes: string[]; reads: string[] } {
  const root =
    app === 'bff'
      ? path.join(repository, 'bff', 'src')
      : path.join(repository, 'services', app, 'src');
  if (!existsSync(root)) return { writes: [], reads: [] };
  const topicOf = (key: string) => {
    const topic = (topics as Record<string, string>)[key];
    assert.ok(topic, `${app}: topics.${key} is not a contract topic`);
    return topic;
  };
  const sources = (
    readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[]
  )
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => ({
      file: path.join(entry.parentPath, entry.name),
      text: readFileSync(path.join(entry.parentPath, entry.name), 'utf8'),
    }));
  const writes = sources.flatMap(({ text }) =>
    [...text.matchAll(/\btopic:\s*topics\.(\w+)/g)].map((match) => topicOf(match[1]!)),
  );
  const reads = sources
    .filter(({ file }) => file.endsWith(path.join('messaging', 'subscriptions.ts')))
    .flatMap(({ text }) =>
      [...text.matchAll(/\bon(?:<[^>]*>)?\(\s*topics\.(\w+)/g)].map((match) => topicOf(match[1]!)),
    );
  return { writes: [...new Set(writes)].sort(), reads: [...new Set(reads)].sort() };
}
