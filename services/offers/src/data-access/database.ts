/** This service's database: the pg pool its repositories query, shared with the generated Prisma client and the outbox relay. */
import { openDatabase, type Database } from '@raly/service-kit/database';
import { PrismaClient } from '../generated/prisma/client';

/** @param databaseUrl `postgresql://…/raly_offers` */
export function openOffersDatabase(databaseUrl: string): Database<PrismaClient> {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }));
}
