/** This service's database: the generated Prisma client over the pg pool it shares with the kit's outbox relay. */
import { openDatabase, type Database, type DatabaseOptions } from '@raly/service-kit/database';
import { PrismaClient } from '../generated/prisma/client';

/** @param databaseUrl `postgresql://…/raly_moderation`; options: the pool size (DATABASE_POOL_MAX of the config) */
export function openModerationDatabase(
  databaseUrl: string,
  options: DatabaseOptions = {},
): Database<PrismaClient> {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }), options);
}
