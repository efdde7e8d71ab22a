/**
 * A service's Postgres connection: one pg pool shared by its Prisma client
 * (driver adapter `@prisma/adapter-pg`, no native engine at run time) and
 * its outbox relay.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
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

/**
 * Opens the pool (connections are made on first use).
 * @param databaseUrl `postgresql://…/<service database>`
 * @param createClient builds the service's generated PrismaClient: `(adapter) => new PrismaClient({ adapter })`
 * @param onIdleError told when an idle pooled connection fails; default: a warning in the log
 */
export function openDatabase<Client extends { $disconnect(): Promise<void> }>(
  databaseUrl: string,
  createClient: (adapter: PrismaPg) => Client,
  onIdleError?: (error: Error) => void,
): Database<Client> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle pooled connection that Postgres ends (restart, failover, a forced
  // drop) emits 'error' on the pool; unheard, it would crash the process.
  // The pool drops that connection and opens a new one on the next query.
  pool.on(
    'error',
    onIdleError ??
      ((error) => idleErrorLogger().warn({ err: error }, 'idle database connection ended')),
  );
  const prisma = createClient(new PrismaPg(pool));
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
