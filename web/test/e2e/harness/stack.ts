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
  const keycloakPublicUrl = process.env.KEYCLOAK_PUBLIC_URL ?? (await issuerHost(stack));
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

/**
 * The front-channel address of Keycloak, read from the realm's discovery
 * document (the issuer is `<address>/realms/<realm>`), so services, BFF and
 * browser agree with whatever host name the running Keycloak was given.
 */
async function issuerHost(stack: TestStack): Promise<string> {
  const response = await fetch(
    `${stack.keycloakUrl}/realms/${stack.realm}/.well-known/openid-configuration`,
  );
  if (!response.ok) throw new Error(`Keycloak discovery answered ${response.status}`);
  const { issuer } = (await response.json()) as { issuer: string };
  return issuer.replace(new RegExp(`/realms/${stack.realm}$`), '');
}
