/**
 * The Kubernetes overlays (docs/operations.md "What CI validates") as
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
 * webhooks or the operators would refuse is out of reach (docs/operations.md). This file holds
 * what both overlays must hold and the dev overlay's infrastructure; the production overlay's
 * Kafka and Postgres are in k8s-production-data.test.ts, its sign-in, routes, secrets and
 * monitoring in k8s-production-access.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { topics } from '@raly/contracts/events';
import { describe, test } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import {
  labelSelectorMatches,
  ofKind,
  overlayNames,
  podTemplateOf,
  repository,
} from './support/kustomize';
import { hasOperatorShape, operatorShapeErrors } from './support/operator-resources';
import { hasRegistrySchema, registrySchemaErrors } from './support/schemas';
import {
  built,
  apps,
  servicesWithDatabase,
  podTemplates,
  type Container,
  containersOf,
  baseName,
  secretSources,
  configOf,
} from './support/overlays';

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
      // dev: only the Secret kustomize generates from the committed development values, which
      // are the local defaults of docs/conventions.md (the apps refuse them in production mode).
      assert.deepEqual(
        secrets.map((secret) => baseName(secret.metadata.name)),
        ['raly-secrets'],
      );
      const tracked = execFileSync('git', ['ls-files', 'k8s/overlays/dev/dev-secrets.env'], {
        cwd: repository,
        encoding: 'utf8',
      });
      assert.equal(tracked.trim(), 'k8s/overlays/dev/dev-secrets.env');
      const decoded = Object.values(secrets[0]!.data ?? {}).map((value) =>
        Buffer.from(value, 'base64').toString('utf8'),
      );
      assert.ok(decoded.length > 0);
      for (const value of decoded)
        assert.match(
          value,
          /local|postgres@postgres|^admin$|^postgres$/,
          `not a dev default: ${value}`,
        );
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
          // The Node apps then drain (services/shared/service-kit lifecycle, docs/operations.md "Shutdown"):
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

    test("when a service with a database is deployed, then its migration Job can run again on every deploy (Argo CD hook), goes after a TTL, has a fixed name and runs the kit's runner in the image the overlay gives the Deployment", () => {
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
        const [migrate] = job.spec.template.spec.containers as (Container & {
          command?: string[];
        })[];
        const [served] = deploymentOf(app).spec.template.spec.containers as Container[];
        assert.match(served!.image, new RegExp(`(^|/)raly/${app}[:@]`));
        assert.equal(migrate?.image, served!.image, `${app}: one image serves and migrates`);
        assert.deepEqual(migrate?.command, ['node', 'dist/migrate.js']);
      }
    });

    test('when a release pins the images by registry and digest (kustomize edit set image), then each migration Job runs the pinned image of its Deployment', () => {
      const pinned = (app: string) =>
        `registry.example.com/raly/${app}@sha256:${createHash('sha256').update(app).digest('hex')}`;
      const release = mkdtempSync(path.join(tmpdir(), 'raly-release-'));
      try {
        const overlayDir = path.relative(
          release,
          path.join(repository, 'k8s', 'overlays', overlay),
        );
        writeFileSync(
          path.join(release, 'kustomization.yaml'),
          stringify({
            apiVersion: 'kustomize.config.k8s.io/v1beta1',
            kind: 'Kustomization',
            resources: [overlayDir],
            images: servicesWithDatabase.map((app) => {
              const [name, digest] = pinned(app).split('@');
              return { name: `raly/${app}`, newName: name, digest };
            }),
          }),
        );
        const released = parseAllDocuments(
          execFileSync('kubectl', ['kustomize', release], {
            encoding: 'utf8',
            maxBuffer: 64 * 1024 * 1024,
          }),
        ).map((document) => document.toJS() as { kind: string; metadata: { name: string } });
        const imageOf = (kind: string, name: string) =>
          (
            released.find((object) => object.kind === kind && object.metadata.name === name) as
              { spec: { template: { spec: { containers: Container[] } } } } | undefined
          )?.spec.template.spec.containers[0]?.image;
        for (const app of servicesWithDatabase) {
          assert.equal(imageOf('Deployment', app), pinned(app), `Deployment ${app}`);
          assert.equal(imageOf('Job', `${app}-migrate`), pinned(app), `Job ${app}-migrate`);
        }
      } finally {
        rmSync(release, { recursive: true, force: true });
      }
    });
  });
}

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
      'raly_collaborations',
      'raly_notifications',
      'raly_moderation',
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
