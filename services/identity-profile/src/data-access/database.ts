/** This service's database: the generated Prisma client over the shared pg pool. */
import { openDatabase, type Database, type DatabaseOptions } from '@raly/service-kit/database';
import { PrismaClient } from '../generated/prisma/client';

export type IdentityDatabase = Database<PrismaClient>;

/** @param databaseUrl `postgresql://…/raly_identity`; options: the pool size (DATABASE_POOL_MAX of the config) */
export function openIdentityDatabase(
  databaseUrl: string,
  options: DatabaseOptions = {},
): IdentityDatabase {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }), options);
}
