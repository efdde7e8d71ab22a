/**
 * A service's Postgres connection: one pg pool shared by its Prisma client
 * (driver adapter `@prisma/adapter-pg`, no native engine at run time) and
 * its outbox relay.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

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
 */
export function openDatabase<Client extends { $disconnect(): Promise<void> }>(
  databaseUrl: string,
  createClient: (adapter: PrismaPg) => Client,
): Database<Client> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
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
