/**
 * The real identity-profile service, started in-process from
 * services/identity-profile/src/app.ts when that service exists.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveTestStack } from '@raly/infra/test-env';
import { createTestDatabase } from '@raly/service-kit/testing';
import type { TestStack } from './stack';

const serviceDir = fileURLToPath(new URL('../../../services/identity-profile', import.meta.url));
const appPath = `${serviceDir}/src/app.ts`;

/** The web origin identity-profile puts into reset links in tests. */
export const testWebUrl = 'http://localhost:15173';

export interface RunningIdentity {
  url: string;
  stop(): Promise<void>;
}

/** True once the identity-profile service has an app module to start. */
export const identityAvailable = (): boolean => existsSync(appPath);

/** Starts identity-profile on a free port against the test stack, on a fresh migrated database of its own. */
export async function startIdentity(stack: TestStack): Promise<RunningIdentity> {
  const app = (await import(appPath)) as {
    start(options: { port: number; env: Record<string, string> }): Promise<{ port: number }>;
    stop(): Promise<void>;
  };
  const endpoints = await resolveTestStack();
  const database = await createTestDatabase('raly_identity', serviceDir);
  const { port } = await app.start({
    port: 0,
    env: {
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://${endpoints.smtp.host}:${endpoints.smtp.port}`,
      WEB_URL: testWebUrl,
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      KEYCLOAK_URL: stack.keycloakUrl,
      KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
      KEYCLOAK_REALM: stack.realm,
      KEYCLOAK_IDENTITY_CLIENT_SECRET: stack.identityClientSecret,
      // A consumer group of its own that skips history (never the running service's offsets).
      KAFKA_GROUP_ID: `identity-test-${randomUUID()}`,
      KAFKA_FROM_BEGINNING: 'false',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await app.stop();
      await database.drop();
    },
  };
}
