/**
 * The row locks of offers' transactions, in raw SQL because Prisma has no
 * `FOR UPDATE` / `FOR SHARE` / `SKIP LOCKED`. Every transaction that locks
 * both takes the offer first, then the application, so two never wait on
 * each other in a circle.
 */
import { Prisma } from '../generated/prisma/client';
import type { Transaction } from './database';

/**
 * Locks an offer for the rest of `tx`: `update` before changing it, `share`
 * to keep it as it is (no decision or close) while an application is added.
 * @param offerId a uuid (checked by the caller)
 * @returns false when no such offer exists
 */
export async function lockOffer(
  tx: Transaction,
  offerId: string,
  mode: 'update' | 'share',
): Promise<boolean> {
  const strength = mode === 'update' ? Prisma.sql`FOR UPDATE` : Prisma.sql`FOR SHARE`;
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM offers WHERE id = ${offerId}::uuid ${strength}`;
  return rows.length > 0;
}

/**
 * Locks an application's offer, then the application, for the rest of `tx`.
 * @param applicationId a uuid (checked by the caller)
 * @returns false when no such application exists
 */
export async function lockApplicationWithOffer(
  tx: Transaction,
  applicationId: string,
): Promise<boolean> {
  const offers = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM offers
     WHERE id = (SELECT offer_id FROM applications WHERE id = ${applicationId}::uuid)
       FOR UPDATE`;
  if (offers.length === 0) return false;
  await tx.$queryRaw`SELECT 1 FROM applications WHERE id = ${applicationId}::uuid FOR UPDATE`;
  return true;
}

/**
 * Locks up to `limit` open offers whose apply-by date has passed, earliest
 * first, skipping those another transaction holds (another instance's sweep,
 * a decision in progress).
 * @returns their ids
 */
export async function lockExpiredOffers(tx: Transaction, limit: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM offers WHERE status = 'open' AND apply_by <= now()
     ORDER BY apply_by LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  return rows.map((row) => row.id);
}
