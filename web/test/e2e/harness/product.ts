/**
 * Starts the whole product for the browser tests, on test ports and with
 * fresh databases: identity-profile, brand and media (in-process through
 * their `src/app.ts` `start({ port: 0, env })`), the BFF (`startBff`), and
 * the web app built and served by `vite preview` with /api and /live
 * proxied to that BFF. Needs the native stack (Postgres, Redis, Kafka,
 * Keycloak, S3) to be up.
 *
 * Services are imported by path, not by package, so the web workspace does
 * not type-check their sources.
 */
import { existsSync } from 'node:fs';
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

interface ServiceModule {
  start(options: { port: number; env: Record<string, string> }): Promise<{ port: number }>;
  stop(): Promise<void>;
}

interface BffModule {
  startBff(options: { port: number; config: Record<string, unknown> }): Promise<{ url: string; stop(): Promise<void> }>;
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
async function startService(name: string, databasePrefix: string, stack: E2eStack): Promise<StartedService | null> {
  const serviceDir = path.join('services', name);
  if (!existsSync(path.join(repoRoot, serviceDir, 'src', 'app.ts'))) return null;
  const database: TestDatabase | null = existsSync(path.join(repoRoot, serviceDir, 'prisma', 'migrations'))
    ? await createTestDatabase(databasePrefix, path.join(repoRoot, serviceDir))
    : null;
  const service = await importModule<ServiceModule>(path.join(serviceDir, 'src', 'app.ts'));
  const { port } = await service.start({
    port: 0,
    env: { ...stack.serviceEnv, ...(database ? { DATABASE_URL: database.url } : {}) },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await service.stop();
      await database?.drop().catch(() => undefined);
    },
  };
}

async function startWeb(bffUrl: string, keycloakUrl: string): Promise<{ server: PreviewServer; outDir: string }> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'raly-web-e2e-'));
  // Vite reads VITE_* from the environment at build time.
  process.env.VITE_KEYCLOAK_URL = keycloakUrl;
  const config = webConfig({ bffUrl, keycloakUrl, port: WEB_TEST_PORT });
  const shared = { ...config, root: webRoot, configFile: false as const, logLevel: 'warn' as const };
  await build({ ...shared, build: { ...config.build, outDir, emptyOutDir: true } });
  const server = await preview({ ...shared, build: { ...config.build, outDir } });
  return { server, outDir };
}

/**
 * Starts the product. Stops what already started when a later part fails.
 * @returns the URLs and `stop()`, which stops everything in reverse order
 */
export async function startProduct(): Promise<RunningProduct> {
  const stack = await resolveStack();
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne().catch((error) => console.error('[e2e] stop failed', error));
  };
  try {
    const identity = await startService('identity-profile', 'raly_identity', stack);
    if (!identity) throw new Error('services/identity-profile/src/app.ts is missing');
    stops.push(identity.stop);
    const brand = await startService('brand', 'raly_brand', stack);
    if (brand) stops.push(brand.stop);
    const media = await startService('media', 'raly_media', stack);
    if (media) stops.push(media.stop);

    const webUrl = `http://localhost:${WEB_TEST_PORT}`;
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
