/** This service's database: the generated Prisma client over the shared pg pool. */
import { openDatabase, type Database } from '@raly/service-kit/database';
import { PrismaClient } from '../generated/prisma/client';

/** @param databaseUrl `postgresql://…/raly_media` */
export function openMediaDatabase(databaseUrl: string): Database<PrismaClient> {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }));
}
