/**
 * Where the test stack is (Postgres, Redis, Kafka, Keycloak, S3, SMTP):
 * `resolveTestStack()` of @raly/infra/test-env (environment, else
 * containers, else the native stack), plus the Keycloak issuer URL.
 */
import { resolveTestStack, type TestStack } from '@raly/infra/test-env';

export interface E2eStack extends TestStack {
  /** The issuer host Keycloak puts in tokens and the browser talks to (docs/conventions.md). */
  keycloakPublicUrl: string;
  /** Environment of the docs/conventions.md names for a service under test (no DATABASE_URL). */
  serviceEnv: Record<string, string>;
}

/** @returns the stack settings the product under test connects to */
export async function resolveStack(): Promise<E2eStack> {
  const stack = await resolveTestStack();
  const keycloakPublicUrl = process.env.KEYCLOAK_PUBLIC_URL ?? 'http://localhost:8080';
  return {
    ...stack,
    keycloakPublicUrl,
    serviceEnv: {
      REDIS_URL: stack.redisUrl,
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      KEYCLOAK_URL: stack.keycloakUrl,
      KEYCLOAK_PUBLIC_URL: keycloakPublicUrl,
      KEYCLOAK_REALM: stack.realm,
      KEYCLOAK_IDENTITY_CLIENT_SECRET: stack.identityClientSecret,
      S3_ENDPOINT: stack.s3.endpoint,
      S3_BUCKET: stack.s3.bucket,
      S3_REGION: stack.s3.region,
      S3_ACCESS_KEY_ID: stack.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: stack.s3.secretAccessKey,
      SMTP_URL: `smtp://${stack.smtp.host}:${stack.smtp.port}`,
      SMTP_CATCHER_URL: stack.smtpCatcherUrl,
      LOG_LEVEL: 'warn',
    },
  };
}
