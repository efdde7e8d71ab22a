/** This service's database: the pg pool its repositories query, shared with the generated Prisma client and the outbox relay. */
import { openDatabase, type Database, type DatabaseOptions } from '@raly/service-kit/database';
import { PrismaClient } from '../generated/prisma/client';

/** @param databaseUrl `postgresql://…/raly_offers`; options: the pool size (DATABASE_POOL_MAX of the config) */
export function openOffersDatabase(
  databaseUrl: string,
  options: DatabaseOptions = {},
): Database<PrismaClient> {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }), options);
}
