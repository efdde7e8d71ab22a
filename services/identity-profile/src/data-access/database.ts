/** This service's database: the generated Prisma client over the shared pg pool. */
import { openDatabase, type Database } from '@raly/service-kit/database';
import { PrismaClient } from '../generated/prisma/client';

export type IdentityDatabase = Database<PrismaClient>;

/** @param databaseUrl `postgresql://…/raly_identity` */
export function openIdentityDatabase(databaseUrl: string): IdentityDatabase {
  return openDatabase(databaseUrl, (adapter) => new PrismaClient({ adapter }));
}
