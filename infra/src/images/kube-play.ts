/**
 * An overlay's app pods under `podman kube play` (docs/images.md "Pods from the overlays"): the
 * Deployment's pod spec as `kubectl kustomize k8s/overlays/<overlay>` renders it — security
 * contexts, probes, volumes and literal env kept — pointed at the local stack: the locally built
 * image, the check environment of ./app-images instead of the ConfigMap and Secret references,
 * the host's network for a Node app on its check port (web: its port published on loopback),
 * and what Podman cannot play (service account, topology spread, preStop sleep, resources)
 * left out. A pod is ready when its readiness and liveness paths answer 200.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { run } from './commands';
import { repositoryRoot } from '../stack/paths';
import {
  checkEnvironment,
  checkPort,
  imageTag,
  migrateThrowawayDatabase,
  waitForOk,
  type ImageApp,
} from './app-images';
import { imagesDirectory, podman, podmanOk } from './podman';

interface RenderedContainer {
  name: string;
  image: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  envFrom?: unknown[];
  ports?: { name?: string; containerPort: number; hostPort?: number; hostIP?: string }[];
  lifecycle?: unknown;
  resources?: unknown;
  readinessProbe?: { httpGet: { path: string; port: string | number } };
  livenessProbe?: { httpGet: { path: string; port: string | number } };
  startupProbe?: { httpGet: { path: string; port: string | number } };
}
interface RenderedPodSpec {
  containers: RenderedContainer[];
  hostNetwork?: boolean;
  [key: string]: unknown;
}

/**
 * Renders an overlay and returns the pod spec of one app's Deployment.
 * @throws Error when kubectl fails or the overlay has no such Deployment
 */
export async function overlayPodSpec(overlay: string, app: ImageApp): Promise<RenderedPodSpec> {
  const rendered = await run('kubectl', [
    'kustomize',
    path.join(repositoryRoot, 'k8s', 'overlays', overlay),
  ]);
  const deployment = parseAllDocuments(rendered)
    .map(
      (document) =>
        document.toJS() as {
          kind?: string;
          metadata?: { name?: string };
          spec?: { template?: { spec?: RenderedPodSpec } };
        } | null,
    )
    .find((document) => document?.kind === 'Deployment' && document.metadata?.name === app);
  const spec = deployment?.spec?.template?.spec;
  if (!spec) throw new Error(`k8s/overlays/${overlay} has no Deployment ${app}`);
  return spec;
}

/** A copy of `object` without `keys`. */
function without<T extends object>(object: T, keys: string[]): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([key]) => !keys.includes(key)),
  ) as Partial<T>;
}

/**
 * The Pod that `podman kube play` runs for an app: see the module's description.
 * @param environment the check environment, DATABASE_URL included for a service
 */
export function localPod(
  app: ImageApp,
  spec: RenderedPodSpec,
  portBase: number,
  environment: Record<string, string>,
): object {
  const port = checkPort(app, portBase);
  const kept = without(spec, [
    'serviceAccountName',
    'automountServiceAccountToken',
    'topologySpreadConstraints',
  ]);
  const containers = spec.containers.map((container) => {
    const rest = without(container, ['lifecycle', 'resources', 'envFrom']);
    const literal = Object.fromEntries(
      (container.env ?? [])
        .filter((variable) => variable.value !== undefined)
        .map((variable) => [variable.name, variable.value!]),
    );
    const env = Object.entries({ ...literal, ...environment }).map(([name, value]) => ({
      name,
      value,
    }));
    const containerPort = container.ports?.[0]?.containerPort ?? port;
    const probe = (given?: { httpGet: { path: string } }) =>
      given && {
        ...given,
        httpGet: { path: given.httpGet.path, port: app === 'web' ? containerPort : port },
      };
    return {
      ...rest,
      image: imageTag(app),
      env,
      // On the host's network a port is not mapped: the app listens on PORT itself.
      ports:
        app === 'web' ? [{ name: 'http', containerPort, hostPort: port, hostIP: '127.0.0.1' }] : [],
      readinessProbe: probe(container.readinessProbe),
      livenessProbe: probe(container.livenessProbe),
      startupProbe: probe(container.startupProbe),
    };
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `raly-play-${app}`, labels: { app } },
    spec: { ...kept, ...(app === 'web' ? {} : { hostNetwork: true }), containers },
  };
}

/**
 * Plays one app's pod from an overlay against the local stack and waits until it is ready
 * (its readiness and liveness paths answer 200 on its check port), then removes it (and a
 * service's throwaway database).
 * @returns probe path → HTTP status
 * @throws Error with the pod's log when it does not become ready
 */
export async function playAppPod(
  app: ImageApp,
  options: { overlay: string; portBase: number; timeoutMs?: number },
): Promise<Record<string, number>> {
  const spec = await overlayPodSpec(options.overlay, app);
  const environment = checkEnvironment(app, options.portBase, `raly-play-${app}-${process.pid}`);
  const database = await migrateThrowawayDatabase(app);
  if (database) environment.DATABASE_URL = database.url;
  const file = path.join(imagesDirectory, `play-${app}.yaml`);
  writeFileSync(file, stringify(localPod(app, spec, options.portBase, environment)));
  const statuses: Record<string, number> = {};
  try {
    await podmanOk(['kube', 'play', '--replace', file]);
    const port = checkPort(app, options.portBase);
    for (const probe of [spec.containers[0]!.readinessProbe, spec.containers[0]!.livenessProbe]) {
      if (!probe) continue;
      statuses[probe.httpGet.path] = await waitForOk(
        `http://127.0.0.1:${port}${probe.httpGet.path}`,
        options.timeoutMs ?? 120_000,
      );
    }
    return statuses;
  } catch (error) {
    const logs = await podman(['pod', 'logs', '--tail', '40', `raly-play-${app}`]);
    throw new Error(`${(error as Error).message}\n${logs.stdout}${logs.stderr}`);
  } finally {
    await podman(['kube', 'down', file]);
    await database?.drop();
  }
}
