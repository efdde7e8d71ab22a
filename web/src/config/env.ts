/**
 * Build-time configuration of the SPA (import.meta.env), checked once at
 * start so a wrong value fails at once instead of at the first login. The
 * checks are hand-written rather than zod: the four values need no more,
 * and zod's core would add ~25 kB (gzip) to the first page.
 */
import { LIVE_PATH } from '@raly/contracts/live';

/** Which backend the build talks to; `staging` makes the app log a notice at start (spec §1). */
export const backendEnvironments = ['local', 'staging', 'production'] as const;
export type BackendEnvironment = (typeof backendEnvironments)[number];

/** Thrown at start when a VITE_* value is malformed. */
export class ConfigError extends Error {
  constructor(name: string, value: string, expected: string) {
    super(`Invalid configuration: ${name}=${JSON.stringify(value)} (expected ${expected})`);
    this.name = 'ConfigError';
  }
}

/**
 * @param raw the VITE_* values (empty or missing means the default)
 * @returns the checked configuration
 * @throws ConfigError when a value is malformed
 */
export function parseEnv(raw: Partial<Record<keyof ImportMetaEnv, string | undefined>>) {
  const value = (name: keyof ImportMetaEnv, fallback: string) => raw[name] || fallback;

  const keycloakUrl = value('VITE_KEYCLOAK_URL', 'http://localhost:8080');
  if (!URL.canParse(keycloakUrl) || !/^https?:$/.test(new URL(keycloakUrl).protocol)) {
    throw new ConfigError('VITE_KEYCLOAK_URL', keycloakUrl, 'an http(s) URL');
  }
  const backend = value('VITE_BACKEND_ENV', 'local');
  if (!(backendEnvironments as readonly string[]).includes(backend)) {
    throw new ConfigError('VITE_BACKEND_ENV', backend, backendEnvironments.join(' | '));
  }
  return {
    keycloak: {
      url: keycloakUrl.replace(/\/$/, ''),
      realm: value('VITE_KEYCLOAK_REALM', 'raly'),
      clientId: value('VITE_KEYCLOAK_CLIENT_ID', 'raly-web'),
    },
    /** The backend this build runs against (VITE_BACKEND_ENV, default `local`). */
    backend: backend as BackendEnvironment,
    /** Same-origin prefix of the BFF's REST API (proxied by Vite in development). */
    apiBaseUrl: '/api',
    /** socket.io path of the BFF's live updates (same origin). */
    livePath: LIVE_PATH,
  } as const;
}

// import.meta.env is Vite's; under node (unit tests) it is absent and the defaults apply.
const viteEnv: Partial<ImportMetaEnv> = import.meta.env ?? {};

export const env = parseEnv({
  VITE_KEYCLOAK_URL: viteEnv.VITE_KEYCLOAK_URL,
  VITE_KEYCLOAK_REALM: viteEnv.VITE_KEYCLOAK_REALM,
  VITE_KEYCLOAK_CLIENT_ID: viteEnv.VITE_KEYCLOAK_CLIENT_ID,
  VITE_BACKEND_ENV: viteEnv.VITE_BACKEND_ENV,
});
