/** This service's database: the generated Prisma client over the shared pg pool. */
import { openDatabase, type Database, type DatabaseOptions } from '@raly/service-kit/database';
import type { EventWriter } from '@raly/service-kit/outbox';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/** The service's writer of changes with their events (`createEventWriter` in ../app.ts). */
export type MediaEvents = EventWriter<Prisma.TransactionClient>;

/** @param databaseUrl `postgresql://…/raly_media`; options: the pool size (DATABASE_POOL_MAX of the config) */
export function openMediaDatabase(
  databaseUrl: string,
  options: DatabaseOptions = {},
): Database<PrismaClient> {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }), options);
}
