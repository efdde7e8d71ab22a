/**
 * A service's Postgres connection: one pg pool shared by its Prisma client
 * (driver adapter `@prisma/adapter-pg`, no native engine at run time) and
 * its outbox relay. Every Prisma query of every repository answers a value
 * Postgres refuses (SQLSTATE class 22) with a 400, never a 500.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { z } from 'zod';
import { databasePoolConfigShape, loadConfig } from './config';
import { isDatabaseDataError, kitFailure } from './errors';
import { createLogger, type Logger } from './logger';

let sharedLogger: Logger | undefined;
const idleErrorLogger = (): Logger => (sharedLogger ??= createLogger('database'));

export interface Database<Client> {
  pool: pg.Pool;
  prisma: Client;
  /** Resolves when Postgres answers; the readiness probe. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** How {@link openDatabase} sizes and watches its pool. */
export interface DatabaseOptions {
  /**
   * The most connections the pool opens (DATABASE_POOL_MAX); default that variable of
   * `process.env`, else 10. docs/operations.md "Postgres connections": replicas × this must fit
   * the database, or its pooler, of the deployment.
   */
  poolMax?: number;
  /** Told when an idle pooled connection fails; default: a warning in the log. */
  onIdleError?: (error: Error) => void;
}

/**
 * DATABASE_POOL_MAX of `env` (config.ts {@link databasePoolConfigShape}).
 * @returns the pool size, 10 when unset
 * @throws Error naming DATABASE_POOL_MAX when it is not an integer from 1 to 1000
 */
export function databasePoolMaxFromEnv(
  env: Record<string, string | undefined> = process.env,
): number {
  return loadConfig(z.object(databasePoolConfigShape), env).DATABASE_POOL_MAX;
}

/**
 * Opens the pool (connections are made on first use).
 * @param databaseUrl `postgresql://…/<service database>`
 * @param createClient builds the service's generated PrismaClient: `(adapter) => new PrismaClient({ adapter })`
 * @param options pool size and idle-error handler (see {@link DatabaseOptions})
 * @throws Error naming DATABASE_POOL_MAX when options.poolMax is not given and the variable is invalid
 */
export function openDatabase<Client extends { $disconnect(): Promise<void> }>(
  databaseUrl: string,
  createClient: (adapter: PrismaPg) => Client,
  options: DatabaseOptions = {},
): Database<Client> {
  const { poolMax = databasePoolMaxFromEnv(), onIdleError } = options;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax });
  // An idle pooled connection that Postgres ends (restart, failover, a forced
  // drop) emits 'error' on the pool; unheard, it would crash the process.
  // The pool drops that connection and opens a new one on the next query.
  pool.on(
    'error',
    onIdleError ??
      ((error) => idleErrorLogger().warn({ err: error }, 'idle database connection ended')),
  );
  // A connection that is checked out but between two queries (an open
  // transaction) emits 'error' on itself instead, and pg-pool does not listen
  // there: unheard, that too crashes the process. The query that uses the
  // connection next fails (its caller answers), and pg-pool discards the
  // broken connection when it is released; here it is only noted.
  pool.on('connect', (client) => {
    client.on('error', (error) =>
      idleErrorLogger().debug({ err: error }, 'database connection in use ended'),
    );
  });
  const prisma = refusingBadValues(createClient(new PrismaPg(pool)));
  return {
    pool,
    prisma,
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** The part of a generated PrismaClient this module extends. */
interface ExtendableClient {
  $extends(extension: {
    query: {
      $allOperations(operation: {
        args: unknown;
        query: (args: unknown) => Promise<unknown>;
      }): Promise<unknown>;
    };
  }): unknown;
}

/**
 * The client, extended so that any query Postgres refuses for its data (a
 * NUL byte, a value too long for its column, text that is not a uuid:
 * SQLSTATE class 22) throws AppError `invalid-argument` of the kit's
 * `badRequest` failure (the app's edge answers it in the app's words; cause:
 * the database error) where it happens. Domain code that wraps unknown
 * failures as 500s (e.g. updateAccountFailed) lets an AppError through, so
 * the caller gets a 400. Other errors (P2002 unique violations…) are
 * rethrown unchanged.
 */
function refusingBadValues<Client>(client: Client): Client {
  return (client as unknown as ExtendableClient).$extends({
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (error) {
          if (!isDatabaseDataError(error)) throw error;
          throw kitFailure('invalid-argument', 'badRequest', { cause: error });
        }
      },
    },
  }) as Client;
}
