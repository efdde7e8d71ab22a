import { defineConfig, loadEnv } from 'vite';
import { webConfig } from './vite.shared.ts';

/**
 * The dev server (`npm run dev -w web`) and `vite preview`. Nothing here goes
 * into the build: /config.json (src/config/env.ts) is answered from
 * BFF_PUBLIC_URL, BACKEND_ENV and the console's CONSOLE_KEYCLOAK_URL,
 * CONSOLE_REALM, CONSOLE_CLIENT_ID (docs/conventions.md), local defaults when
 * unset; BFF_URL is where /api and /live are proxied to.
 */
export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, import.meta.dirname, ''), ...process.env };
  const backend = env.BACKEND_ENV;
  return webConfig({
    bffUrl: env.BFF_URL ?? 'http://127.0.0.1:4000',
    runtimeConfig: {
      bffUrl: env.BFF_PUBLIC_URL ?? '',
      backendEnvironment:
        backend === 'staging' || backend === 'production' || backend === 'local'
          ? backend
          : 'local',
      // The staff console signs in at the local stack's Keycloak unless told otherwise.
      consoleKeycloakUrl: env.CONSOLE_KEYCLOAK_URL ?? 'http://localhost:8080',
      consoleRealm: env.CONSOLE_REALM ?? 'raly',
      consoleClientId: env.CONSOLE_CLIENT_ID ?? 'raly-console',
    },
    port: env.PORT ? Number(env.PORT) : undefined,
  });
});
