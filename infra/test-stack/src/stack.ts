/**
 * Where tests find the stack: `resolveTestStack()` of `@raly/infra/test-env`
 * (environment variables, else testcontainers, else the native stack), plus
 * Keycloak's issuer read from the realm's discovery document, so services,
 * BFF and browser verify tokens against whatever issuer the running Keycloak
 * really uses; and the environment (docs/conventions.md names) a service
 * under test is started with.
 */
import { resolveTestStack, type TestStack as StackEndpoints } from '@raly/infra/test-env';

export {
  createKeycloakUser,
  decodeJwtClaims,
  identityServiceToken,
  listMails,
  loginClientId,
  passwordGrant,
  refreshGrant,
  resolveTestStack,
  waitForMail,
  type CaughtMail,
} from '@raly/infra/test-env';

/** The stack's endpoints and Keycloak's front-channel address. */
export interface TestStack extends StackEndpoints {
  /** The issuer's origin (`KEYCLOAK_PUBLIC_URL`): the host name Keycloak puts in tokens. */
  keycloakPublicUrl: string;
}

let resolved: Promise<TestStack> | undefined;

async function resolve(): Promise<TestStack> {
  const stack = await resolveTestStack();
  const discovery = await fetch(
    `${stack.keycloakUrl}/realms/${stack.realm}/.well-known/openid-configuration`,
  );
  if (!discovery.ok) throw new Error(`Keycloak discovery answered ${discovery.status}`);
  const { issuer } = (await discovery.json()) as { issuer: string };
  return {
    ...stack,
    keycloakPublicUrl: issuer.replace(new RegExp(`/realms/${stack.realm}$`), ''),
  };
}

/**
 * @returns the test stack's settings (resolved once per test file's process)
 * @throws Error when no stack can be found or Keycloak's discovery document does not answer
 */
export function testStack(): Promise<TestStack> {
  resolved ??= resolve().catch((error: unknown) => {
    resolved = undefined;
    throw error;
  });
  return resolved;
}

/**
 * The environment of a service under test (docs/conventions.md names), without
 * DATABASE_URL, KAFKA_GROUP_ID and the peers' URLs: Redis, Kafka (from the
 * newest offset, never another run's history), Keycloak, S3, SMTP, and
 * LOG_LEVEL from the test's environment (default silent).
 */
export function serviceEnvironment(stack: TestStack): Record<string, string> {
  return {
    REDIS_URL: stack.redisUrl,
    KAFKA_BROKERS: stack.kafkaBrokers.join(','),
    KAFKA_FROM_BEGINNING: 'false',
    KEYCLOAK_URL: stack.keycloakUrl,
    KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
    KEYCLOAK_REALM: stack.realm,
    KEYCLOAK_IDENTITY_CLIENT_SECRET: stack.identityClientSecret,
    KEYCLOAK_LOGIN_CLIENT_SECRET: stack.loginClientSecret,
    S3_ENDPOINT: stack.s3.endpoint,
    S3_BUCKET: stack.s3.bucket,
    S3_REGION: stack.s3.region,
    S3_ACCESS_KEY_ID: stack.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: stack.s3.secretAccessKey,
    SMTP_URL: `smtp://${stack.smtp.host}:${stack.smtp.port}`,
    SMTP_CATCHER_URL: stack.smtpCatcherUrl,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  };
}
