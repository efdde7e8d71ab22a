/**
 * The deployment rules (docs/architecture.md "Running and operating",
 * docs/adr/0004-container-images-and-deploy.md) checked on what the cluster would receive — every
 * object of `kubectl kustomize k8s/overlays/<dev|production>` (support/built-manifests.ts).
 * Nothing is applied to a cluster; the images are checked in deploy-images.test.ts. The overlays' schemas and platform policies
 * are checked in the k8s-overlay-*.test.ts files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';
import { parse } from 'yaml';
import {
  appDeployments,
  appNames,
  baseName,
  containersOf,
  deployments,
  isApp,
  objects,
  ofKind,
  podSpecOf,
  podTemplateOwners,
  type Container,
} from './support/built-manifests';
import { k8sDir, overlayNames } from './support/kustomize';

const kustomization = parse(
  readFileSync(path.join(k8sDir, 'base', 'kustomization.yaml'), 'utf8'),
) as {
  images: { name: string; newTag?: string }[];
};

/** Infrastructure images that write into their own file system at start (dev-grade stand-ins, k8s/README.md). */
const WRITABLE_ROOT_FILESYSTEM: Record<string, string> = {
  keycloak: 'start-dev builds Quarkus into /opt/keycloak/lib at every start',
  s3: 'S3Mock (Spring Boot) unpacks itself under the working directory',
};

/** Environment variable names whose values are credentials or hold them (a database URL may carry a password). */
const SECRET_NAME = /PASSWORD|SECRET|TOKEN|PRIVATE|CREDENTIAL|ACCESS_KEY|API_KEY|DATABASE_URL/;

const selects = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

const namedPort = (container: Container, port: string | number) =>
  typeof port === 'number'
    ? container.ports?.some((declared) => declared.containerPort === port)
    : container.ports?.some((declared) => declared.name === port);

describe('k8s manifests (both overlays, as built)', () => {
  test('when the images of k8s/base/kustomization.yaml are read, then each names an image the manifests use', () => {
    const used = new Set(
      objects
        .filter((object) => object.spec?.template?.spec)
        .flatMap((object) =>
          containersOf(object).map((container) => container.image.replace(/:[^/:]+$/, '')),
        ),
    );
    for (const image of kustomization.images) {
      assert.ok(
        used.has(image.name),
        `k8s/base/kustomization.yaml sets ${image.name}, which no manifest uses`,
      );
    }
  });

  test('when the overlays are built, then each has a Deployment for each app of k8s/base/apps', () => {
    assert.ok(appNames.length >= 6, 'identity-profile, brand, media, offers, bff and web');
    for (const overlay of overlayNames)
      for (const app of appNames)
        assert.ok(
          appDeployments.some(
            (deployment) => deployment.metadata.name === app && deployment.overlay === overlay,
          ),
          `${overlay}: no Deployment named ${app}`,
        );
  });

  for (const deployment of deployments) {
    const name = `${deployment.overlay}: Deployment ${deployment.metadata.name}`;
    describe(name, () => {
      const pod = podSpecOf(deployment);
      const containers = containersOf(deployment);

      test('when its pod starts, then it runs as a non-root user', () => {
        for (const container of containers) {
          const runAsNonRoot =
            container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
          const runAsUser = container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
          assert.equal(runAsNonRoot, true, `${container.name}: runAsNonRoot`);
          assert.notEqual(runAsUser, 0, `${container.name}: runAsUser 0`);
        }
      });

      test('when its containers run, then none can gain privileges', () => {
        for (const container of containers) {
          assert.equal(container.securityContext?.allowPrivilegeEscalation, false, container.name);
          assert.notEqual(container.securityContext?.privileged, true, container.name);
        }
      });

      test('when its containers run, then their root file system is read-only (or the exception is documented)', () => {
        if (WRITABLE_ROOT_FILESYSTEM[deployment.metadata.name] && !isApp(deployment)) return;
        for (const container of containers) {
          assert.equal(container.securityContext?.readOnlyRootFilesystem, true, container.name);
        }
      });

      test('when it is scheduled, then every container has cpu and memory requests and limits', () => {
        for (const container of containers) {
          for (const kind of ['requests', 'limits'] as const) {
            for (const resource of ['cpu', 'memory']) {
              assert.ok(
                container.resources?.[kind]?.[resource],
                `${container.name}: resources.${kind}.${resource}`,
              );
            }
          }
        }
      });

      test('when it runs, then readiness and liveness probes watch it on ports it declares', () => {
        for (const container of pod.containers as Container[]) {
          for (const probe of [container.readinessProbe, container.livenessProbe]) {
            assert.ok(probe, `${container.name}: readinessProbe and livenessProbe`);
            const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
            if (port !== undefined)
              assert.ok(namedPort(container, port), `${container.name}: probe port ${port}`);
          }
        }
      });

      test('when its environment is read, then secrets come only by reference, never as literal values', () => {
        for (const container of containers) {
          for (const variable of container.env ?? []) {
            if (SECRET_NAME.test(variable.name)) {
              assert.ok(
                variable.valueFrom && !('value' in variable),
                `${container.name}: ${variable.name} is a literal`,
              );
            }
            if (variable.value !== undefined) {
              assert.doesNotMatch(
                variable.value,
                /:\/\/[^/\s:@]+:[^/\s@]+@/,
                `${container.name}: ${variable.name} holds a password`,
              );
            }
          }
          for (const source of container.envFrom ?? []) {
            assert.ok(
              'configMapRef' in source || 'secretRef' in source,
              `${container.name}: envFrom ${JSON.stringify(source)}`,
            );
          }
        }
      });

      test('when its image is pulled, then the reference carries an explicit tag other than latest', () => {
        for (const container of containers) {
          const tag = /:([^/:@]+)$/.exec(container.image)?.[1];
          assert.ok(
            tag || container.image.includes('@sha256:'),
            `${container.name}: ${container.image} has no tag`,
          );
          assert.notEqual(tag, 'latest', `${container.name}: ${container.image}`);
        }
      });

      if (isApp(deployment)) {
        test('when it is an app, then its containers drop every capability and the pod uses the RuntimeDefault seccomp profile', () => {
          assert.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault');
          for (const container of containers) {
            assert.deepEqual(
              container.securityContext?.capabilities?.drop,
              ['ALL'],
              container.name,
            );
          }
        });

        test('when it is an app, then its configuration comes only from the ConfigMap and the Secret', () => {
          for (const container of containers) {
            for (const source of container.envFrom ?? []) {
              const reference = (source.configMapRef ?? source.secretRef) as { name: string };
              assert.ok(
                ['raly-config', 'raly-secrets'].includes(baseName(reference.name)),
                `${container.name}: ${reference.name}`,
              );
            }
            for (const variable of container.env ?? []) {
              const from = variable.valueFrom as
                | {
                    secretKeyRef?: { name: string; key: string };
                    configMapKeyRef?: { name: string; key: string };
                  }
                | undefined;
              // Every Kafka user's own Secret (production) is checked in k8s-overlays.test.ts.
              const reference = from?.secretKeyRef ?? from?.configMapKeyRef;
              if (!reference || reference.name.startsWith('raly-kafka-')) continue;
              assert.ok(
                ['raly-config', 'raly-secrets'].includes(baseName(reference.name)),
                `${variable.name}: ${reference.name}`,
              );
            }
          }
        });

        test('when it is a Node app, then it sets HOST=0.0.0.0, so it listens on the pod network (alone it listens on loopback only)', () => {
          const app = deployment.metadata.name;
          if (app === 'web') {
            console.log(`${app} is not a Node app`);
            return;
          }
          for (const container of containers) {
            const host = container.env?.find((variable) => variable.name === 'HOST');
            assert.equal(host?.value, '0.0.0.0', `${container.name}: HOST`);
          }
        });

        test('when it is an app, then a HorizontalPodAutoscaler scales it and a PodDisruptionBudget protects it', () => {
          const labels = deployment.spec.template.metadata.labels;
          const autoscaler = ofKind('HorizontalPodAutoscaler', deployment.overlay).find(
            (object) =>
              object.spec.scaleTargetRef.kind === 'Deployment' &&
              object.spec.scaleTargetRef.name === deployment.metadata.name,
          );
          assert.ok(autoscaler, 'HorizontalPodAutoscaler');
          assert.ok(
            autoscaler.spec.minReplicas >= 2,
            'minReplicas ≥ 2, so one pod can go while the other serves',
          );
          assert.equal(deployment.spec.replicas, undefined, 'replicas belong to the autoscaler');
          const budget = ofKind('PodDisruptionBudget', deployment.overlay).find((object) =>
            selects(object.spec.selector.matchLabels, labels),
          );
          assert.ok(budget, 'PodDisruptionBudget');
        });
      }
    });
  }

  test('when a Service is read, then its selector picks the pods of an existing workload and its target ports exist there', () => {
    const services = ofKind('Service');
    assert.ok(services.length > 0);
    for (const service of services) {
      const selector = service.spec.selector as Record<string, string>;
      assert.ok(
        selector && Object.keys(selector).length > 0,
        `${service.metadata.name}: no selector`,
      );
      const owners = podTemplateOwners.filter(
        (owner) =>
          owner.overlay === service.overlay &&
          selects(selector, owner.spec.template.metadata.labels),
      );
      const [owner] = owners;
      assert.ok(
        owner && owners.length === 1,
        `${service.overlay}: ${service.metadata.name} selects ${owners.length} workloads`,
      );
      const containers = containersOf(owner);
      for (const port of service.spec.ports as {
        name: string;
        targetPort?: string | number;
        port: number;
      }[]) {
        const target = port.targetPort ?? port.port;
        assert.ok(
          containers.some((container) => namedPort(container, target)),
          `${service.metadata.name}: targetPort ${target}`,
        );
      }
    }
  });

  test('when the dev Ingress is read, then / goes to web, /api and /live to bff, and every backend is an existing Service port', () => {
    const routes = new Map<string, string>();
    for (const ingress of ofKind('Ingress')) {
      for (const rule of ingress.spec.rules) {
        for (const route of rule.http.paths) {
          const backend = route.backend.service as {
            name: string;
            port: { name?: string; number?: number };
          };
          const service = ofKind('Service', ingress.overlay).find(
            (object) => object.metadata.name === backend.name,
          );
          assert.ok(service, `${route.path}: no Service ${backend.name}`);
          assert.ok(
            service.spec.ports.some(
              (port: { name: string; port: number }) =>
                port.name === backend.port.name || port.port === backend.port.number,
            ),
            `${route.path}: ${backend.name} has no port ${JSON.stringify(backend.port)}`,
          );
          routes.set(route.path, backend.name);
        }
      }
    }
    assert.equal(routes.get('/'), 'web');
    assert.equal(routes.get('/api'), 'bff');
    assert.equal(routes.get('/live'), 'bff');
  });

  test('when the BFF Deployment is read, then it trusts exactly the ingress hop for client addresses and takes its secrets from the Secret', () => {
    const bff = appDeployments.find((deployment) => deployment.metadata.name === 'bff');
    assert.ok(bff, 'k8s/base/apps/bff.yaml');
    const [container] = containersOf(bff);
    const variable = (name: string) => container?.env?.find((entry) => entry.name === name);
    assert.match(variable('TRUST_PROXY')?.value ?? '', /^[1-9]\d*$/, 'TRUST_PROXY is a hop count');
    for (const name of [
      'KEYCLOAK_SERVICE_CLIENT_SECRET',
      'KEYCLOAK_LOGIN_CLIENT_SECRET',
      'DEVICE_COOKIE_SECRET',
    ]) {
      const reference = (variable(name)?.valueFrom as { secretKeyRef?: { name: string } })
        ?.secretKeyRef;
      assert.equal(baseName(reference?.name ?? ''), 'raly-secrets', `${name} from the Secret`);
    }
  });

  test('when a ConfigMap is read, then it holds no secret-like key', () => {
    for (const configMap of ofKind('ConfigMap')) {
      for (const key of Object.keys(configMap.data ?? {})) {
        assert.doesNotMatch(
          key,
          SECRET_NAME,
          `${configMap.metadata.name}.${key} belongs in a Secret`,
        );
      }
    }
  });

  test("when a service has a database, then its migration Job runs the Deployment's own image with the kit's runner, as non-root on a read-only root, on the direct migration URL", () => {
    const withDatabase = appDeployments.filter((deployment) =>
      containersOf(deployment).some((container) =>
        container.env?.some((variable) => variable.name === 'DATABASE_URL'),
      ),
    );
    assert.ok(withDatabase.length >= 2 * 6, `${withDatabase.length} Deployments with a database`);
    for (const deployment of withDatabase) {
      const app = `${deployment.overlay}: ${deployment.metadata.name}`;
      const job = ofKind('Job', deployment.overlay).find(
        (object) => object.metadata.name === `${deployment.metadata.name}-migrate`,
      );
      assert.ok(job, `${app}: no migration Job ${deployment.metadata.name}-migrate`);
      assert.equal(
        job.metadata.labels?.['app.kubernetes.io/component'],
        'migration',
        `${app}: the label k8s/README.md waits on`,
      );
      const pod = podSpecOf(job);
      assert.equal(pod.securityContext?.runAsNonRoot, true, app);
      assert.ok(pod.securityContext?.runAsUser > 0, `${app}: runAsUser`);
      assert.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault', app);
      const [served] = containersOf(deployment);
      const [migration, ...others] = containersOf(job);
      assert.deepEqual(others, [], `${app}: the Job runs one container`);
      assert.equal(migration!.image, served!.image, `${app}: the Job runs the Deployment's image`);
      assert.deepEqual((migration as { command?: string[] }).command, ['node', 'dist/migrate.js']);
      assert.equal((migration as { args?: string[] }).args, undefined, app);
      assert.equal(migration!.securityContext?.readOnlyRootFilesystem, true, app);
      assert.equal(migration!.securityContext?.allowPrivilegeEscalation, false, app);
      assert.deepEqual(migration!.securityContext?.capabilities?.drop, ['ALL'], app);
      const writable = (pod.volumes ?? []) as { name: string; emptyDir?: object }[];
      for (const mount of (migration as { volumeMounts?: { name: string }[] }).volumeMounts ?? [])
        assert.ok(
          writable.find((volume) => volume.name === mount.name)?.emptyDir,
          `${app}: ${mount.name} is an emptyDir`,
        );
      const secretKey = (container: Container) =>
        (
          container.env?.find((variable) => variable.name === 'DATABASE_URL')?.valueFrom as
            { secretKeyRef?: { key: string } } | undefined
        )?.secretKeyRef?.key;
      assert.deepEqual(
        migration!.env?.map((variable) => variable.name),
        ['DATABASE_URL'],
        `${app}: the Job's environment`,
      );
      assert.equal(
        secretKey(migration!),
        secretKey(served!)?.replace(/_DATABASE_URL$/, '_MIGRATION_DATABASE_URL'),
        `${app}: the Job connects with the direct migration URL, never the pooler's`,
      );
    }
  });
});
