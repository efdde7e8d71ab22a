/**
 * Test helpers shared by the services' integration tests: where the test
 * stack is (environment variables with the docs/conventions.md defaults),
 * fresh uniquely named databases, and unique values. Tests only; never
 * imported by service code.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** Connection settings of the test stack. */
export interface TestStack {
  postgresUrl: (database: string) => string;
  kafkaBrokers: string[];
  keycloakUrl: string;
  keycloakPublicUrl: string;
  keycloakRealm: string;
  identityClientSecret: string;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
}

/** The test stack from the environment, defaulting to the native stack's addresses. */
export function testStack(env: Record<string, string | undefined> = process.env): TestStack {
  // Server URL without a database, e.g. postgresql://postgres@127.0.0.1:5432
  const postgresServer = (env.TEST_POSTGRES_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/$/, '');
  return {
    postgresUrl: (database) => `${postgresServer}/${database}`,
    kafkaBrokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    keycloakUrl: env.KEYCLOAK_URL ?? 'http://127.0.0.1:8080',
    keycloakPublicUrl: env.KEYCLOAK_PUBLIC_URL ?? 'http://localhost:8080',
    keycloakRealm: env.KEYCLOAK_REALM ?? 'raly',
    identityClientSecret: env.KEYCLOAK_IDENTITY_CLIENT_SECRET ?? 'raly-identity-local-secret',
    s3: {
      endpoint: env.S3_ENDPOINT ?? 'http://127.0.0.1:9090',
      bucket: env.S3_BUCKET ?? 'raly-media',
      region: env.S3_REGION ?? 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID ?? 'raly-local',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? 'raly-local-secret',
    },
  };
}

/** A short unique lowercase token, e.g. for usernames (letters and digits only). */
export function uniqueToken(length = 10): string {
  return randomUUID().replaceAll('-', '').slice(0, length);
}

/**
 * A fresh database name for one test run, e.g. `raly_identity_test_3f2a…`.
 * @param prefix the service database name
 */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_test_${uniqueToken(12)}`;
}

/**
 * Drops a test database (ends its other connections first).
 * @param databaseUrl URL of the database to drop
 */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const database = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
