/**
 * Starts the whole product for the browser tests, on test ports and with
 * fresh databases: identity-profile, brand, media, offers, collaborations, notifications and
 * moderation in-process
 * (`@raly/test-support/system` startSystem), the BFF (`@raly/test-support/bff`
 * startTestBff), and the web app built and served by `vite preview` with
 * /api and /live proxied to that BFF. Needs the stack (Postgres, Redis,
 * Kafka, Keycloak, S3) to be up.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import { consoleClientId, type TestStack } from '@raly/test-support';
import { startTestBff } from '@raly/test-support/bff';
import { startSystem, type RalySystem } from '@raly/test-support/system';
import { webConfig } from '../../../vite.shared.ts';

const webRoot = path.resolve(import.meta.dirname, '..', '..', '..');

/**
 * The port of the web app under test (default 14173, in the tests'
 * 14000–14999 range; WEB_TEST_PORT chooses another). Since docs/adr/0009 the
 * product never calls Keycloak (it refreshes through the BFF), so any port
 * works; the staff console's test registers this origin's /console/* with
 * the console client itself. Test files that share one take turns on it.
 */
export const WEB_TEST_PORT = Number(process.env.WEB_TEST_PORT ?? 14173);

export interface RunningProduct {
  /** e.g. http://localhost:14173 */
  webUrl: string;
  /** The BFF, for direct API calls of the test (e.g. http://127.0.0.1:41234). */
  bffUrl: string;
  stack: TestStack;
  /** The services behind the BFF (their SQL, e.g. to wait until a consumer knows a user). */
  system: RalySystem;
  stop(): Promise<void>;
}

async function startWeb(
  bffUrl: string,
  stack: TestStack,
  options: ProductOptions,
): Promise<{ server: PreviewServer; outDir: string }> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'raly-web-e2e-'));
  // The preview server answers /config.json (the runtime configuration) from these; the staff
  // console signs in at the stack's Keycloak (docs/console.md).
  const config = webConfig({
    bffUrl,
    port: WEB_TEST_PORT,
    runtimeConfig: {
      backendEnvironment: options.backendEnvironment ?? 'local',
      consoleKeycloakUrl: stack.keycloakPublicUrl,
      consoleRealm: stack.realm,
      consoleClientId: consoleClientId,
    },
  });
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
 * The port is fixed (WEB_TEST_PORT), so browser test files running
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

/** How the product under test is configured. */
export interface ProductOptions {
  /** The web app's runtime `backendEnvironment` (default local); staging logs the notice. */
  backendEnvironment?: 'local' | 'staging' | 'production';
}

/**
 * Starts the product. Stops what already started when a later part fails.
 * @param options the web app's runtime configuration
 * @returns the URLs and `stop()`, which stops everything in reverse order
 */
export async function startProduct(options: ProductOptions = {}): Promise<RunningProduct> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const stopOne of stops.reverse())
      await stopOne().catch((error) => console.error('[e2e] stop failed', error));
  };
  const webUrl = `http://localhost:${WEB_TEST_PORT}`;
  try {
    // Password reset and team invitation e-mails link to the web app under test; download URLs
    // point at media itself (as the ingress's /files would), so the browser loads the pictures.
    const system = await startSystem({
      media: true,
      offers: true,
      collaborations: true,
      notifications: true,
      moderation: true,
      publicHost: 'localhost',
      env: {
        common: { LOG_LEVEL: 'warn' },
        'identity-profile': { WEB_URL: webUrl },
        brand: { WEB_URL: webUrl },
      },
    });
    stops.push(system.stop);
    const bff = await startTestBff(system.stack, {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
      MEDIA_URL: system.mediaUrl,
      OFFERS_URL: system.offersUrl,
      COLLABORATIONS_URL: system.collaborationsUrl,
      NOTIFICATIONS_URL: system.notificationsUrl,
      MODERATION_URL: system.moderationUrl,
      CORS_ORIGIN: [webUrl],
      LOG_LEVEL: 'warn',
    });
    stops.push(bff.stop);

    const web = await startWeb(bff.url, system.stack, options);
    stops.push(async () => {
      await web.server.close();
      await rm(web.outDir, { recursive: true, force: true });
    });
    return { webUrl, bffUrl: bff.url, stack: system.stack, system, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
