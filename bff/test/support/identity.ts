/**
 * The real identity-profile service, started in-process from
 * services/identity-profile/src/app.ts when that service exists.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveTestStack } from '@raly/infra/test-env';
import type { TestStack } from './stack';

const appPath = fileURLToPath(new URL('../../../services/identity-profile/src/app.ts', import.meta.url));

export interface RunningIdentity {
  url: string;
  stop(): Promise<void>;
}

/** True once the identity-profile service has an app module to start. */
export const identityAvailable = (): boolean => existsSync(appPath);

/** Starts identity-profile on a free port against the test stack (its database must be migrated). */
export async function startIdentity(stack: TestStack): Promise<RunningIdentity> {
  const app = (await import(appPath)) as {
    start(options: { port: number; env: Record<string, string> }): Promise<{ port: number }>;
    stop(): Promise<void>;
  };
  const endpoints = await resolveTestStack();
  const { port } = await app.start({
    port: 0,
    env: {
      DATABASE_URL: endpoints.databaseUrl('raly_identity'),
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      KEYCLOAK_URL: stack.keycloakUrl,
      KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
      KEYCLOAK_REALM: stack.realm,
      KEYCLOAK_IDENTITY_CLIENT_SECRET: stack.identityClientSecret,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    },
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => app.stop() };
}
