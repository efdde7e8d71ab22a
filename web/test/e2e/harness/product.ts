/**
 * Starts the whole product for the browser tests, on test ports and with
 * fresh databases: identity-profile, brand and media (in-process through
 * their `src/app.ts` `start({ port, env })`, on free ports), the BFF (`startBff`), and
 * the web app built and served by `vite preview` with /api and /live
 * proxied to that BFF. Needs the native stack (Postgres, Redis, Kafka,
 * Keycloak, S3) to be up.
 *
 * Services are imported by path, not by package, so the web workspace does
 * not type-check their sources.
 */
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';
import { createTestDatabase, uniqueToken, type TestDatabase } from '@raly/service-kit/testing';
import { webConfig } from '../../../vite.shared.ts';
import { resolveStack, type E2eStack } from './stack.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const webRoot = path.join(repoRoot, 'web');

/**
 * The port of the web app under test. Fixed (in the tests' 14000–14999
 * range) because Keycloak only answers the browser's token refresh for the
 * client's registered web origins, and http://localhost:14173 is one of
 * them (infra/keycloak/raly-realm.json).
 */
export const WEB_TEST_PORT = Number(process.env.WEB_TEST_PORT ?? 14173);

/** A rate limit no browser test file reaches (BFF config `<points>/<seconds>`, parsed). */
const browserTestLimit = { points: 1000, durationSeconds: 3600 };

interface ServiceModule {
  start(options: { port: number; env: Record<string, string> }): Promise<{ port: number }>;
  stop(): Promise<void>;
}

interface BffModule {
  startBff(options: {
    port: number;
    config: Record<string, unknown>;
  }): Promise<{ url: string; stop(): Promise<void> }>;
}

export interface RunningProduct {
  /** e.g. http://localhost:14173 */
  webUrl: string;
  /** The BFF, for direct API calls of the test (e.g. http://127.0.0.1:41234). */
  bffUrl: string;
  stack: E2eStack;
  stop(): Promise<void>;
}

async function importModule<T>(relativePath: string): Promise<T> {
  return (await import(pathToFileURL(path.join(repoRoot, relativePath)).href)) as T;
}

interface StartedService {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts one service in-process with its own fresh database (when it has migrations).
 * @returns its URL and how to stop it (and drop its database); null when the service has no app yet
 */
/** @returns a TCP port that was free a moment ago (the OS's pick for port 0) */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startService(
  name: string,
  databasePrefix: string,
  stack: E2eStack,
  {
    port: requestedPort = 0,
    env: extraEnv = {},
  }: { port?: number; env?: Record<string, string> } = {},
): Promise<StartedService | null> {
  const serviceDir = path.join('services', name);
  if (!existsSync(path.join(repoRoot, serviceDir, 'src', 'app.ts'))) return null;
  const database: TestDatabase | null = existsSync(
    path.join(repoRoot, serviceDir, 'prisma', 'migrations'),
  )
    ? await createTestDatabase(databasePrefix, path.join(repoRoot, serviceDir))
    : null;
  const service = await importModule<ServiceModule>(path.join(serviceDir, 'src', 'app.ts'));
  const { port } = await service.start({
    port: requestedPort,
    env: {
      ...stack.serviceEnv,
      // Its own consumer group, from the newest offset: another run of the product (another test
      // file waiting for the web port, or `npm start`) must not take this one's events.
      KAFKA_GROUP_ID: `${name}-web-e2e-${uniqueToken(8)}`,
      KAFKA_FROM_BEGINNING: 'false',
      ...extraEnv,
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await service.stop();
      await database?.drop().catch(() => undefined);
    },
  };
}

async function startWeb(
  bffUrl: string,
  keycloakUrl: string,
): Promise<{ server: PreviewServer; outDir: string }> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'raly-web-e2e-'));
  // Vite reads VITE_* from the environment at build time.
  process.env.VITE_KEYCLOAK_URL = keycloakUrl;
  const config = webConfig({ bffUrl, keycloakUrl, port: WEB_TEST_PORT });
  const shared = {
    ...config,
    root: webRoot,
    configFile: false as const,
    logLevel: 'warn' as const,
  };
  await build({ ...shared, build: { ...config.build, outDir, emptyOutDir: true } });
  const server = await whenPortFree(() =>
    preview({ ...shared, build: { ...config.build, outDir } }),
  );
  return { server, outDir };
}

/** How long a test file waits for another one to release WEB_TEST_PORT (ms). */
const WEB_PORT_WAIT_MS = 15 * 60_000;

/**
 * Runs `listen` until it no longer fails because WEB_TEST_PORT is taken.
 * The port is fixed (Keycloak's web origin), so browser test files running
 * at the same time, in this checkout or another engineer's, take turns:
 * the port itself is the lock.
 */
async function whenPortFree<T>(listen: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WEB_PORT_WAIT_MS;
  for (;;) {
    try {
      return await listen();
    } catch (error) {
      const taken = error instanceof Error && /already in use|EADDRINUSE/.test(error.message);
      if (!taken || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * Starts the product. Stops what already started when a later part fails.
 * @returns the URLs and `stop()`, which stops everything in reverse order
 */
export async function startProduct(): Promise<RunningProduct> {
  const stack = await resolveStack();
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const stopOne of stops.reverse())
      await stopOne().catch((error) => console.error('[e2e] stop failed', error));
  };
  const webUrl = `http://localhost:${WEB_TEST_PORT}`;
  try {
    // identity-profile and brand call each other (brand registration saga, username registry):
    // both ports are chosen first so each can be given the other's address.
    const [identityPort, brandPort] = await Promise.all([freePort(), freePort()]);
    const peers = {
      IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
      BRAND_URL: `http://127.0.0.1:${brandPort}`,
    };
    // Password reset e-mails link to the web app under test.
    const identity = await startService('identity-profile', 'raly_identity', stack, {
      port: identityPort,
      env: { ...peers, WEB_URL: webUrl },
    });
    if (!identity) throw new Error('services/identity-profile/src/app.ts is missing');
    stops.push(identity.stop);
    const brand = await startService('brand', 'raly_brand', stack, { port: brandPort, env: peers });
    if (brand) stops.push(brand.stop);
    // Download URLs point at media itself (as the ingress's /files would), so the browser loads the pictures.
    const mediaPort = await freePort();
    const media = await startService('media', 'raly_media', stack, {
      port: mediaPort,
      env: { ...peers, MEDIA_PUBLIC_URL: `http://localhost:${mediaPort}` },
    });
    if (media) stops.push(media.stop);

    const { startBff } = await importModule<BffModule>('bff/src/app.ts');
    const bff = await startBff({
      port: 0,
      config: {
        IDENTITY_URL: identity.url,
        ...(brand ? { BRAND_URL: brand.url } : {}),
        ...(media ? { MEDIA_URL: media.url } : {}),
        KEYCLOAK_URL: stack.keycloakUrl,
        KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
        KEYCLOAK_REALM: stack.realm,
        REDIS_URL: stack.redisUrl,
        KAFKA_BROKERS: stack.kafkaBrokers,
        KAFKA_GROUP_ID: `bff-web-e2e-${uniqueToken(8)}`,
        CORS_ORIGIN: [webUrl],
        // Every browser call comes from one address: the browser tests' own counters, with room for a
        // whole test file (the limits themselves are tested in bff/test/rate-limits.test.ts).
        RATE_LIMIT_KEY_PREFIX: `bff-web-e2e-${uniqueToken(8)}`,
        RATE_LIMIT_CREATE_ACCOUNT_PER_IP: browserTestLimit,
        RATE_LIMIT_FORGOT_PASSWORD_PER_IP: browserTestLimit,
        RATE_LIMIT_LOGIN_PER_IP: browserTestLimit,
        LOG_LEVEL: 'warn',
      },
    });
    stops.push(bff.stop);

    const web = await startWeb(bff.url, stack.keycloakPublicUrl);
    stops.push(async () => {
      await web.server.close();
      await rm(web.outDir, { recursive: true, force: true });
    });
    return { webUrl, bffUrl: bff.url, stack, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
