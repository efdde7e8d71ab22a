import { defineConfig, loadEnv } from 'vite';
import { webConfig } from './vite.shared.ts';

export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, import.meta.dirname, ''), ...process.env };
  return webConfig({
    bffUrl: env.BFF_URL ?? 'http://127.0.0.1:4000',
    keycloakUrl: env.VITE_KEYCLOAK_URL ?? 'http://localhost:8080',
    port: env.PORT ? Number(env.PORT) : undefined,
  });
});
