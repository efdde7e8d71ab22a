/**
 * Build-time configuration of the SPA (import.meta.env), validated once so a
 * wrong value fails at start instead of at the first login.
 */
import { z } from 'zod';

const envSchema = z.object({
  VITE_KEYCLOAK_URL: z.url().default('http://localhost:8080'),
  VITE_KEYCLOAK_REALM: z.string().min(1).default('raly'),
  VITE_KEYCLOAK_CLIENT_ID: z.string().min(1).default('raly-web'),
});

const parsed = envSchema.parse({
  VITE_KEYCLOAK_URL: import.meta.env.VITE_KEYCLOAK_URL || undefined,
  VITE_KEYCLOAK_REALM: import.meta.env.VITE_KEYCLOAK_REALM || undefined,
  VITE_KEYCLOAK_CLIENT_ID: import.meta.env.VITE_KEYCLOAK_CLIENT_ID || undefined,
});

export const env = {
  keycloak: {
    url: parsed.VITE_KEYCLOAK_URL.replace(/\/$/, ''),
    realm: parsed.VITE_KEYCLOAK_REALM,
    clientId: parsed.VITE_KEYCLOAK_CLIENT_ID,
  },
  /** Same-origin prefix of the BFF's REST API (proxied by Vite in development). */
  apiBaseUrl: '/api',
  /** socket.io path of the BFF's live updates (same origin). */
  livePath: '/live',
} as const;
