/** This service's database: the generated Prisma client over the shared pg pool. */
import { openDatabase, type Database, type DatabaseOptions } from '@raly/service-kit/database';
import type { EventWriter } from '@raly/service-kit/outbox';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

export type IdentityDatabase = Database<PrismaClient>;

/** The service's writer of changes with their events (`createEventWriter` in ../app.ts). */
export type IdentityEvents = EventWriter<Prisma.TransactionClient>;

/** @param databaseUrl `postgresql://…/raly_identity`; options: the pool size (DATABASE_POOL_MAX of the config) */
export function openIdentityDatabase(
  databaseUrl: string,
  options: DatabaseOptions = {},
): IdentityDatabase {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }), options);
}
