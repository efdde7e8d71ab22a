/** Fresh, uniquely named databases migrated like a service's, one per test file. */
import path from 'node:path';
import { migrate } from '@raly/service-kit/migrate';
import type { Pool } from 'pg';
import { dropDatabase, testStack, uniqueToken } from '@raly/test-stack';

/** A database created for one test file, and how to drop it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The services with a database: their folder under services/ and their database name. */
export const serviceDatabases = {
  'identity-profile': 'raly_identity',
  brand: 'raly_brand',
  media: 'raly_media',
  offers: 'raly_offers',
  collaborations: 'raly_collaborations',
  notifications: 'raly_notifications',
  moderation: 'raly_moderation',
} as const;

export type ServiceWithDatabase = keyof typeof serviceDatabases;

const servicesDir = path.resolve(import.meta.dirname, '..', '..', '..', 'services');

/**
 * Creates a fresh database `<service database>_test_<token>` and applies the
 * service's migrations (services/<service>/prisma/migrations) with the kit's
 * migration runner.
 * @param service e.g. `identity-profile`
 * @param migrationsDir another folder of migrations (the kit's own tests)
 */
export async function createTestDatabase(
  service: ServiceWithDatabase | { prefix: string; migrationsDir: string },
): Promise<TestDatabase> {
  const { prefix, migrationsDir } =
    typeof service === 'string'
      ? {
          prefix: serviceDatabases[service],
          migrationsDir: path.join(servicesDir, service, 'prisma', 'migrations'),
        }
      : service;
  const stack = await testStack();
  const url = stack.databaseUrl(`${prefix}_test_${uniqueToken(12)}`);
  await migrate(url, migrationsDir);
  return { url, drop: () => dropDatabase(url) };
}

/**
 * Records the text of every statement sent on `pool`'s connections from now on (those it opens
 * after this call), in order: what a test counts to pin a hot path's round trips.
 * @param pool a pg pool that has opened no connection yet
 * @returns the list the texts are appended to (empty it between the steps counted)
 */
export function recordStatements(pool: Pool): string[] {
  const statements: string[] = [];
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [first] = args;
      statements.push(typeof first === 'string' ? first : (first as { text: string }).text);
      return query(...args);
    }) as typeof client.query;
  });
  return statements;
}
