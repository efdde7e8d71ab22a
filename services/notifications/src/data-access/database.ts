/** This service's database: the generated Prisma client over the pg pool it shares with the outbox relay. */
import { openDatabase, type Database, type DatabaseOptions } from '@raly/service-kit/database';
import type { EventWriter } from '@raly/service-kit/outbox';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/** One interactive transaction of the client (`prisma.$transaction(async (tx) => …)`). */
export type Transaction = Prisma.TransactionClient;

/** Writes a change and its events in one transaction (the kit's, over this client). */
export type NotificationsEventWriter = EventWriter<Transaction>;

/** @param databaseUrl `postgresql://…/raly_notifications`; options: the pool size (DATABASE_POOL_MAX of the config) */
export function openNotificationsDatabase(
  databaseUrl: string,
  options: DatabaseOptions = {},
): Database<PrismaClient> {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }), options);
}
