/**
 * The apps' images as they ship (docs/images.md): each app's Dockerfile built with Podman on the
 * local base images (./base-images), then each image run the way its Deployment in k8s/base runs
 * it — read-only root, the pod's non-root user, every capability dropped, no privilege
 * escalation, its emptyDir volumes as tmpfs — against the running local stack, until it answers
 * its readiness and liveness probes; and each service's migrations applied by its image to a
 * throwaway database.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { parse, parseAllDocuments } from 'yaml';
import { nativeEndpoints, stackEnvironment, workspaceDatabases } from '../stack/endpoints';
import { repositoryRoot } from '../stack/paths';
import { ports } from '../stack/settings';
import { ensureNginxImage, ensureNodeImage, nginxImage, nodeImage } from './base-images';
import { podman, podmanOk } from './podman';

/** An app with an image: the name of its Deployment in k8s/base, e.g. `brand`. */
export type ImageApp = string;

/**
 * Every app with an image, in k8s/base/kustomization.yaml's order (services, then the BFF and
 * web): each `apps/<app>.yaml` it lists.
 */
export const imageApps: readonly ImageApp[] = (
  parse(readFileSync(path.join(repositoryRoot, 'k8s', 'base', 'kustomization.yaml'), 'utf8')) as {
    resources: string[];
  }
).resources
  .map((resource) => /^apps\/(.+)\.yaml$/.exec(resource)?.[1])
  .filter((app): app is string => app !== undefined);

/** The app's workspace folder, e.g. `services/brand`, `bff`, `web`. */
export function workspaceOf(app: ImageApp): string {
  return app === 'bff' || app === 'web' ? app : `services/${app}`;
}

/** The local tag an app's image gets, e.g. `localhost/raly/brand:0.1.0` (k8s/base's name and tag). */
export function imageTag(app: ImageApp): string {
  return `localhost/raly/${app}:0.1.0`;
}

/**
 * Builds one app's image from its Dockerfile (default target) with the local base images as
 * NODE_IMAGE (and NGINX_IMAGE for web), the Dockerfile's own .dockerignore, and the host's
 * network for `npm ci` (the npm registry). Makes the base images first when missing.
 * @param options.echo stream the build's output to stderr
 * @returns the build's duration in ms
 * @throws Error with the end of the build's output when it fails
 */
export async function buildAppImage(
  app: ImageApp,
  options: { echo?: boolean; noCache?: boolean } = {},
): Promise<number> {
  const started = Date.now();
  await ensureNodeImage();
  if (app === 'web') await ensureNginxImage();
  const dockerfile = path.join(workspaceOf(app), 'Dockerfile');
  await podmanOk(
    [
      'build',
      '--pull=never',
      '--network=host',
      '--layers',
      // Docker's format keeps the Dockerfiles' HEALTHCHECK (OCI's has none).
      '--format=docker',
      ...(options.noCache ? ['--no-cache'] : []),
      '-f',
      dockerfile,
      '--ignorefile',
      `${dockerfile}.dockerignore`,
      '--build-arg',
      `NODE_IMAGE=${nodeImage()}`,
      ...(app === 'web' ? ['--build-arg', `NGINX_IMAGE=${nginxImage}`] : []),
      '-t',
      imageTag(app),
      '.',
    ],
    { echo: options.echo },
  );
  return Date.now() - started;
}

interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  name: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    privileged?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
  };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number };
  containers: Container[];
  volumes?: { name: string; emptyDir?: { sizeLimit?: string } }[];
}

/** How k8s/base runs an app: its Deployment's pod and, for a service with a database, its Job's. */
export interface AppManifest {
  pod: PodSpec;
  migrationPod?: PodSpec;
}

/**
 * Reads k8s/base/apps/<app>.yaml.
 * @throws Error when it holds no Deployment
 */
export function appManifest(app: ImageApp): AppManifest {
  const text = readFileSync(
    path.join(repositoryRoot, 'k8s', 'base', 'apps', `${app}.yaml`),
    'utf8',
  );
  const documents = parseAllDocuments(text).map(
    (document) =>
      document.toJS() as { kind?: string; spec?: { template?: { spec?: PodSpec } } } | null,
  );
  const podOf = (kind: string) =>
    documents.find((document) => document?.kind === kind)?.spec?.template?.spec;
  const pod = podOf('Deployment');
  if (!pod) throw new Error(`k8s/base/apps/${app}.yaml has no Deployment`);
  return { pod, migrationPod: podOf('Job') };
}

/**
 * `podman run` options for a pod's first container's security settings: user and group,
 * `--read-only` (without Podman's extra tmpfs on /run and /var/tmp), capabilities dropped and
 * added, no-new-privileges, and each emptyDir mount as a tmpfs of its sizeLimit owned by the
 * container's user (an emptyDir is writable by the pod's user).
 * @throws Error when the pod says runAsNonRoot but names no non-zero runAsUser
 */
export function securityOptions(pod: PodSpec): string[] {
  const container = pod.containers[0]!;
  const context = container.securityContext ?? {};
  const user = pod.securityContext?.runAsUser;
  const group = pod.securityContext?.runAsGroup ?? user;
  if (pod.securityContext?.runAsNonRoot && !user)
    throw new Error(`${container.name}: runAsNonRoot without a non-zero runAsUser`);
  const options: string[] = [];
  if (user !== undefined) options.push('--user', `${user}:${group}`);
  if (context.readOnlyRootFilesystem) options.push('--read-only', '--read-only-tmpfs=false');
  if (context.privileged) options.push('--privileged');
  for (const capability of context.capabilities?.drop ?? []) options.push('--cap-drop', capability);
  for (const capability of context.capabilities?.add ?? []) options.push('--cap-add', capability);
  if (context.allowPrivilegeEscalation === false)
    options.push('--security-opt', 'no-new-privileges');
  for (const mount of container.volumeMounts ?? []) {
    const volume = pod.volumes?.find((candidate) => candidate.name === mount.name);
    if (!volume?.emptyDir) continue;
    const size = volume.emptyDir.sizeLimit?.replace(/i$/, '').toLowerCase();
    options.push('--tmpfs', `${mount.mountPath}:rw,${size ? `size=${size},` : ''}U`);
  }
  return options;
}

/**
 * The port each app's container listens on in a check: `base` + the app's usual offset
 * (BFF base+0, identity-profile base+1 … notifications base+6, moderation base+7), web base+8.
 */
export function checkPort(app: ImageApp, base: number): number {
  if (app === 'web') return base + 8;
  const usual: Record<string, number> = {
    bff: ports.bff,
    'identity-profile': ports.identity,
    brand: ports.brand,
    media: ports.media,
    offers: ports.offers,
    collaborations: ports.collaborations,
    notifications: ports.notifications,
    moderation: ports.moderation,
  };
  if (!(app in usual)) throw new Error(`${app}: no port`);
  return base + (usual[app]! - ports.bff);
}

/** Postgres URL of a throwaway database on the local stack's server. */
function throwawayDatabase(app: ImageApp): { name: string; url: string } {
  const name = `raly_images_${app.replace(/-/g, '_')}_${process.pid}_${Date.now() % 100000}`;
  return { name, url: nativeEndpoints().databaseUrl(name) };
}

/** Drops a database, closing its connections (Postgres ≥ 13). */
async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: nativeEndpoints().databaseUrl('postgres') });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The migration folders an app's image applies: its own and the outbox's. */
function expectedMigrations(app: ImageApp): string[] {
  const folders = (folder: string) =>
    readdirSync(path.join(repositoryRoot, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  return [
    ...folders(path.join(workspaceOf(app), 'prisma', 'migrations')),
    ...folders('services/shared/service-kit/prisma/outbox/migrations'),
  ].sort();
}

/** Polls `url` until it answers 2xx; @returns the status, @throws after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
      await response.body?.cancel();
      if (response.ok) return response.status;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`${url}: ${last} after ${timeoutMs} ms`);
}

export interface AppCheck {
  app: ImageApp;
  /** Migration folders the image recorded in `_prisma_migrations` (services only). */
  migrations?: string[];
  /** Probe path → HTTP status. */
  probes: Record<string, number>;
  /** The user the container's process ran as (`id -u`), from the image's own run. */
  uid: number;
}

/**
 * The environment an app's container gets in a check. web: its Deployment's literal `env`.
 * A Node app: the local stack's (infra/src/stack/endpoints.ts) with the other apps at their
 * {@link checkPort}s, its PORT, its own Kafka consumer group from the topics' end, and
 * NODE_ENV=development (the local stack's secrets are the development defaults, which
 * production refuses).
 * @param consumerGroup the Kafka consumer group, unique to the check
 */
export function checkEnvironment(
  app: ImageApp,
  portBase: number,
  consumerGroup: string,
): Record<string, string> {
  const environment: Record<string, string> = {};
  if (app === 'web') {
    const container = appManifest(app).pod.containers[0] as {
      env?: { name: string; value?: string }[];
    };
    for (const variable of container.env ?? []) environment[variable.name] = variable.value ?? '';
    return environment;
  }
  Object.assign(environment, stackEnvironment(nativeEndpoints(), workspaceOf(app)));
  for (const other of imageApps) {
    if (other === 'web') continue;
    const key = other === 'identity-profile' ? 'IDENTITY_URL' : `${other.toUpperCase()}_URL`;
    environment[key] = `http://127.0.0.1:${checkPort(other, portBase)}`;
  }
  return Object.assign(environment, {
    PORT: String(checkPort(app, portBase)),
    NODE_ENV: 'development',
    KAFKA_GROUP_ID: consumerGroup,
    KAFKA_FROM_BEGINNING: 'false',
    ACCESS_LOG_LEVEL: 'silent',
  });
}

/** A throwaway database a service's image has migrated; `drop` removes it. */
export interface MigratedDatabase {
  url: string;
  /** The migration folders recorded in `_prisma_migrations`, in name order. */
  migrations: string[];
  drop(): Promise<void>;
}

/**
 * Runs the service's image as its migration Job in k8s/base runs it: the Job's security
 * settings ({@link securityOptions}) and its command (the image's own runner,
 * `node dist/migrate.js`, which creates the database when missing) in place of the entrypoint.
 * @param databaseUrl the database to migrate
 * @throws Error when the app has no migration Job or the container exits non-zero
 */
async function runMigrationContainer(app: ImageApp, databaseUrl: string): Promise<void> {
  const job = appManifest(app).migrationPod;
  const command = job?.containers[0]?.command;
  if (!job || !command) throw new Error(`k8s/base/apps/${app}.yaml has no migration Job command`);
  await podmanOk([
    'run',
    '--rm',
    '--network=host',
    ...securityOptions(job),
    '-e',
    `DATABASE_URL=${databaseUrl}`,
    `--entrypoint=${JSON.stringify(command)}`,
    imageTag(app),
  ]);
}

/**
 * Creates a throwaway database on the local Postgres by migrating it with the service's image
 * (by default {@link runMigrationContainer}; `npm run images -- --play` plays the migration Job's
 * pod instead), then checks that every migration folder (the service's and the outbox's) is
 * recorded as finished.
 * @param migrateWith runs the migrations against the URL it is given; throws when they fail
 * @returns undefined for an app without a database
 * @throws Error when the run fails or a migration is missing (the database is dropped)
 */
export async function migrateThrowawayDatabase(
  app: ImageApp,
  migrateWith: (databaseUrl: string) => Promise<void> = (databaseUrl) =>
    runMigrationContainer(app, databaseUrl),
): Promise<MigratedDatabase | undefined> {
  if (!(workspaceOf(app) in workspaceDatabases)) return undefined;
  const { name, url } = throwawayDatabase(app);
  const drop = () => dropDatabase(name);
  try {
    await migrateWith(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let migrations: string[];
    try {
      const rows = await client.query<{ migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY 1',
      );
      migrations = rows.rows.map((row) => row.migration_name);
    } finally {
      await client.end();
    }
    const expected = expectedMigrations(app);
    if (JSON.stringify(migrations) !== JSON.stringify(expected))
      throw new Error(
        `${app}: migrations recorded ${JSON.stringify(migrations)}, expected ${JSON.stringify(expected)}`,
      );
    return { url, migrations, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

/**
 * Runs one app's image as its Deployment does (see {@link securityOptions}) with
 * {@link checkEnvironment} and waits for its readiness and liveness probes. A service serves on
 * a database its image has just migrated ({@link migrateThrowawayDatabase}), dropped
 * afterwards. Node apps share the host's network (the stack listens on loopback) on
 * {@link checkPort}; web, whose nginx listens on 8080 like the local Keycloak, is published
 * from Podman's bridge instead.
 * @param options.portBase see {@link checkPort}; options.timeoutMs per probe (default 120 s)
 * @throws Error with the container's log when a step fails
 */
export async function checkAppImage(
  app: ImageApp,
  options: { portBase: number; timeoutMs?: number },
): Promise<AppCheck> {
  const manifest = appManifest(app);
  const container = manifest.pod.containers[0]!;
  const name = `raly-images-${app}-${process.pid}`;
  const port = checkPort(app, options.portBase);
  const result: AppCheck = { app, probes: {}, uid: -1 };
  let database: MigratedDatabase | undefined;
  try {
    const environment = checkEnvironment(app, options.portBase, name);
    database = await migrateThrowawayDatabase(app);
    if (database) {
      environment.DATABASE_URL = database.url;
      result.migrations = database.migrations;
    }
    const network =
      app === 'web'
        ? ['-p', `127.0.0.1:${port}:${container.ports?.[0]?.containerPort ?? 8080}`]
        : ['--network=host'];
    await podmanOk([
      'run',
      '-d',
      '--name',
      name,
      ...network,
      ...securityOptions(manifest.pod),
      ...Object.entries(environment).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
      imageTag(app),
    ]);
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      if (!probe) continue;
      result.probes[probe.httpGet.path] = await waitForOk(
        `http://127.0.0.1:${port}${probe.httpGet.path}`,
        options.timeoutMs ?? 120_000,
      );
    }
    result.uid = Number((await podmanOk(['exec', name, 'id', '-u'])).trim());
    return result;
  } catch (error) {
    const logs = await podman(['logs', '--tail', '40', name]);
    throw new Error(`${(error as Error).message}\n--- ${name} ---\n${logs.stdout}${logs.stderr}`);
  } finally {
    await podman(['rm', '-f', '-t', '5', name]);
    await database?.drop();
  }
}
