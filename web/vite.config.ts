import { defineConfig, loadEnv } from 'vite';
import { webConfig } from './vite.shared.ts';

/**
 * The dev server (`npm run dev -w web`) and `vite preview`. Nothing here goes
 * into the build: /config.json (src/config/env.ts) is answered from
 * KEYCLOAK_PUBLIC_URL, KEYCLOAK_REALM, KEYCLOAK_WEB_CLIENT_ID, BFF_PUBLIC_URL
 * and BACKEND_ENV (docs/conventions.md), local defaults when unset.
 */
export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, import.meta.dirname, ''), ...process.env };
  const backend = env.BACKEND_ENV;
  return webConfig({
    bffUrl: env.BFF_URL ?? 'http://127.0.0.1:4000',
    keycloakUrl: env.KEYCLOAK_PUBLIC_URL ?? 'http://localhost:8080',
    runtimeConfig: {
      keycloakRealm: env.KEYCLOAK_REALM ?? 'raly',
      keycloakClientId: env.KEYCLOAK_WEB_CLIENT_ID ?? 'raly-web',
      bffUrl: env.BFF_PUBLIC_URL ?? '',
      backendEnvironment:
        backend === 'staging' || backend === 'production' || backend === 'local'
          ? backend
          : 'local',
    },
    port: env.PORT ? Number(env.PORT) : undefined,
  });
});
