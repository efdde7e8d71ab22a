/** This service's database: the generated Prisma client over the shared pg pool. */
import { openDatabase, type Database, type DatabaseOptions } from '@raly/service-kit/database';
import { PrismaClient } from '../generated/prisma/client';

/** @param databaseUrl `postgresql://…/raly_brand`; options: the pool size (DATABASE_POOL_MAX of the config) */
export function openBrandDatabase(
  databaseUrl: string,
  options: DatabaseOptions = {},
): Database<PrismaClient> {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }), options);
}
