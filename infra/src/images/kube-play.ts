/**
 * An overlay's app pods under `podman kube play` (docs/images.md "Pods from the overlays"): the
 * pod specs of the app's Deployment and, for a service, of its migration Job `<app>-migrate`, as
 * `kubectl kustomize k8s/overlays/<overlay>` renders them — security contexts, command, probes,
 * volumes and literal env kept — pointed at the local stack: the locally built image, the check
 * environment of ./app-images instead of the ConfigMap and Secret references, the host's network
 * for a Node app on its check port (web: its port published on loopback), and what Podman cannot
 * play (service account, topology spread, preStop sleep, resources) left out. The Job's pod runs
 * first, once (restartPolicy Never), on a fresh database and must exit 0; the Deployment's pod
 * then serves on that database and is ready when its readiness and liveness paths answer 200.
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
  command?: string[];
  securityContext?: unknown;
}
interface RenderedPodSpec {
  containers: RenderedContainer[];
  hostNetwork?: boolean;
  [key: string]: unknown;
}

/** The pod specs an overlay renders for one app. */
export interface OverlayPods {
  deployment: RenderedPodSpec;
  /** The migration Job `<app>-migrate`'s, for a service with a database. */
  migration?: RenderedPodSpec;
}

/**
 * Renders an overlay and returns the pod specs of one app's Deployment and migration Job.
 * @throws Error when kubectl fails, the overlay has no such Deployment, or the Job's image is
 *   not the Deployment's (the play runs the one local image for both)
 */
export async function overlayPodSpecs(overlay: string, app: ImageApp): Promise<OverlayPods> {
  const rendered = await run('kubectl', [
    'kustomize',
    path.join(repositoryRoot, 'k8s', 'overlays', overlay),
  ]);
  const documents = parseAllDocuments(rendered).map(
    (document) =>
      document.toJS() as {
        kind?: string;
        metadata?: { name?: string };
        spec?: { template?: { spec?: RenderedPodSpec } };
      } | null,
  );
  const podOf = (kind: string, name: string) =>
    documents.find((document) => document?.kind === kind && document.metadata?.name === name)?.spec
      ?.template?.spec;
  const deployment = podOf('Deployment', app);
  if (!deployment) throw new Error(`k8s/overlays/${overlay} has no Deployment ${app}`);
  const migration = podOf('Job', `${app}-migrate`);
  const [served, migrating] = [deployment.containers[0]?.image, migration?.containers[0]?.image];
  if (migration && migrating !== served)
    throw new Error(`${app}: the migration Job runs ${migrating}, the Deployment ${served}`);
  return { deployment, migration };
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
 * @param name the Pod's name; its containers are named `<name>-<container>` by Podman
 */
export function localPod(
  app: ImageApp,
  spec: RenderedPodSpec,
  portBase: number,
  environment: Record<string, string>,
  name = `raly-play-${app}`,
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
    metadata: { name, labels: { app } },
    spec: { ...kept, ...(app === 'web' ? {} : { hostNetwork: true }), containers },
  };
}

/**
 * The Pod that `podman kube play` runs for a service's migration Job: {@link localPod} of the
 * Job's pod spec, named `raly-play-<app>-migrate`, on `databaseUrl` alone (the Job's only
 * variable), run once: restartPolicy Never where the Job says OnFailure, so a failure shows as
 * the container's exit code instead of a retry.
 */
export function localMigrationPod(
  app: ImageApp,
  spec: RenderedPodSpec,
  portBase: number,
  databaseUrl: string,
): object {
  const environment = { DATABASE_URL: databaseUrl };
  const once = { ...spec, restartPolicy: 'Never' };
  return localPod(app, once, portBase, environment, `raly-play-${app}-migrate`);
}

/**
 * Plays a service's migration Job pod ({@link localMigrationPod}) and waits for its container
 * to end, then removes the pod.
 * @throws Error with the pod's log when the container exits non-zero
 */
async function playMigrationPod(
  app: ImageApp,
  spec: RenderedPodSpec,
  portBase: number,
  databaseUrl: string,
): Promise<void> {
  const name = `raly-play-${app}-migrate`;
  const file = path.join(imagesDirectory, `play-${app}-migrate.yaml`);
  writeFileSync(file, stringify(localMigrationPod(app, spec, portBase, databaseUrl)));
  try {
    await podmanOk(['kube', 'play', '--replace', file]);
    const code = (await podmanOk(['wait', `${name}-${spec.containers[0]!.name}`])).trim();
    if (code !== '0') {
      const logs = await podman(['pod', 'logs', '--tail', '40', name]);
      throw new Error(`${name} exited ${code}\n${logs.stdout}${logs.stderr}`);
    }
  } finally {
    await podman(['kube', 'down', file]);
  }
}

/** What playing an app's pods showed. */
export interface PlayedApp {
  /** Probe path → HTTP status of the Deployment's pod. */
  probes: Record<string, number>;
  /** The migration folders the Job's pod recorded (services only). */
  migrations?: string[];
}

/**
 * Plays one app's pods from an overlay against the local stack: a service's migration Job pod
 * first, on a fresh throwaway database (see migrateThrowawayDatabase, which then checks that
 * every migration folder is recorded), then the Deployment's pod on that database, until it is
 * ready (its readiness and liveness paths answer 200 on its check port); then removes the
 * pods and the database.
 * @throws Error with the pod's log when the Job's pod fails or the Deployment's is not ready
 */
export async function playAppPod(
  app: ImageApp,
  options: { overlay: string; portBase: number; timeoutMs?: number },
): Promise<PlayedApp> {
  const { deployment: spec, migration } = await overlayPodSpecs(options.overlay, app);
  const environment = checkEnvironment(app, options.portBase, `raly-play-${app}-${process.pid}`);
  const database = await migrateThrowawayDatabase(app, async (databaseUrl) => {
    if (!migration) throw new Error(`k8s/overlays/${options.overlay} has no Job ${app}-migrate`);
    await playMigrationPod(app, migration, options.portBase, databaseUrl);
  });
  if (database) environment.DATABASE_URL = database.url;
  const file = path.join(imagesDirectory, `play-${app}.yaml`);
  writeFileSync(file, stringify(localPod(app, spec, options.portBase, environment)));
  const played: PlayedApp = { probes: {}, migrations: database?.migrations };
  try {
    await podmanOk(['kube', 'play', '--replace', file]);
    const port = checkPort(app, options.portBase);
    for (const probe of [spec.containers[0]!.readinessProbe, spec.containers[0]!.livenessProbe]) {
      if (!probe) continue;
      played.probes[probe.httpGet.path] = await waitForOk(
        `http://127.0.0.1:${port}${probe.httpGet.path}`,
        options.timeoutMs ?? 120_000,
      );
    }
    return played;
  } catch (error) {
    const logs = await podman(['pod', 'logs', '--tail', '40', `raly-play-${app}`]);
    throw new Error(`${(error as Error).message}\n${logs.stdout}${logs.stderr}`);
  } finally {
    await podman(['kube', 'down', file]);
    await database?.drop();
  }
}
