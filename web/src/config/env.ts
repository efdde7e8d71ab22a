/**
 * Runtime configuration of the SPA (where the BFF is, which backend this
 * is), read at start from `/config.json` so one build serves every
 * environment. The nginx image renders the file from its environment
 * (web/nginx.conf), the Vite servers from their settings (vite.shared.ts);
 * index.html preloads it. Checked with zod (config/runtime-config-schema): a
 * missing file or a bad value stops the start with a page naming it
 * (app/config-error-page). The SPA talks to the BFF only (docs/adr/0009).
 */
import { LIVE_PATH } from '@raly/contracts/live';
import { checkRuntimeConfig } from '@/config/runtime-config-schema';

export {
  backendEnvironments,
  type BackendEnvironment,
  type RuntimeConfig,
} from '@/config/runtime-config-schema';

/** Where the app reads its configuration (same origin). */
export const RUNTIME_CONFIG_PATH = '/config.json';

/** Thrown at start when `/config.json` is missing, unreadable or invalid; `problems` name each field. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration (${RUNTIME_CONFIG_PATH}): ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * @param raw the parsed JSON of `/config.json`
 * @returns the app's configuration (trailing slashes dropped, same-origin paths for the BFF, the
 *   console's sign-in when configured);
 *   fields it does not know (e.g. an older server's `keycloakUrl`) are left out
 * @throws ConfigError naming every malformed field
 */
export function parseRuntimeConfig(raw: unknown) {
  const checked = checkRuntimeConfig(raw);
  if (!checked.ok) throw new ConfigError(checked.problems);
  const { config } = checked;
  const bffUrl = (config.bffUrl ?? '').replace(/\/$/, '');
  const { consoleKeycloakUrl, consoleRealm, consoleClientId } = config;
  return {
    /** The backend this app runs against (default `production`). */
    backend: config.backendEnvironment ?? 'production',
    /** The BFF's origin for the live socket; '' is this origin. */
    bffUrl,
    /** Prefix of the BFF's REST API ('/api' on this origin, proxied by Vite in development). */
    apiBaseUrl: `${bffUrl}/api`,
    /** socket.io path of the BFF's live updates. */
    livePath: LIVE_PATH,
    /**
     * Where the staff console signs staff in (docs/console.md): Keycloak's origin, the realm and
     * the console's public client; null unless all three are set.
     */
    console:
      consoleKeycloakUrl && consoleRealm && consoleClientId
        ? {
            url: consoleKeycloakUrl.replace(/\/$/, ''),
            realm: consoleRealm,
            clientId: consoleClientId,
          }
        : null,
  } as const;
}

export type AppConfig = ReturnType<typeof parseRuntimeConfig>;

/**
 * The configuration in force: set once by {@link configure} before the app
 * renders (main.tsx); read by the session, the api and the live socket.
 */
export let env: AppConfig;

/**
 * Checks and installs the configuration.
 * @param raw the parsed JSON of `/config.json`
 * @throws ConfigError when it is invalid
 */
export function configure(raw: unknown): AppConfig {
  env = parseRuntimeConfig(raw);
  return env;
}

/**
 * Reads `/config.json` (the preloaded response when index.html's preload
 * matched) and installs it.
 * @throws ConfigError when the file is missing, not JSON or invalid
 */
export async function loadRuntimeConfig(fetchFile: typeof fetch = fetch): Promise<AppConfig> {
  let answer: Response;
  try {
    answer = await fetchFile(RUNTIME_CONFIG_PATH, { credentials: 'same-origin' });
  } catch (error) {
    throw new ConfigError([`${RUNTIME_CONFIG_PATH} could not be fetched (${String(error)})`]);
  }
  if (!answer.ok) throw new ConfigError([`${RUNTIME_CONFIG_PATH} answered ${answer.status}`]);
  let raw: unknown;
  try {
    raw = await answer.json();
  } catch {
    throw new ConfigError([`${RUNTIME_CONFIG_PATH} is not JSON`]);
  }
  return configure(raw);
}
