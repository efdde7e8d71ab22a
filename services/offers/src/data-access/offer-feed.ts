/**
 * The feed of open offers. Which offers and in what order is one raw query:
 * the order puts first those sharing an interest with the reader (the array
 * overlap `&&`), which Prisma's `orderBy` cannot say; their snapshots are
 * then read through Prisma.
 */
import type { OfferRecord, OffersQuery, Page } from '@raly/contracts/offers';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { offerSnapshot, toOfferRecord } from './snapshots';

/** `%q%` for ILIKE with `\`, `%` and `_` taken literally (ESCAPE '\'). */
const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, '\\$&')}%`;

function feedFilter(query: OffersQuery): Prisma.Sql {
  const conditions = [Prisma.sql`o.status = 'open'`, Prisma.sql`o.apply_by > now()`];
  if (query.interest?.length) conditions.push(Prisma.sql`o.interests && ${query.interest}::text[]`);
  if (query.platform?.length) conditions.push(Prisma.sql`o.platforms && ${query.platform}::text[]`);
  if (query.q) {
    const pattern = containsPattern(query.q);
    const matches = ['o.title', 'o.brief', 'b.company', 'b.username'].map(
      (column) => Prisma.sql`${Prisma.raw(column)} ILIKE ${pattern} ESCAPE '\\'`,
    );
    conditions.push(Prisma.sql`(${Prisma.join(matches, ' OR ')})`);
  }
  return Prisma.join(conditions, ' AND ');
}

/**
 * One page of the feed: open offers before their apply-by date, filtered by
 * any of the interests and platforms and by `q` in title, brief, brand
 * company and username (case-insensitive, wildcards taken literally); those
 * sharing an interest with `preferredInterests` first, then newest opened first.
 */
export async function readFeed(
  prisma: PrismaClient,
  query: OffersQuery,
  preferredInterests: string[],
): Promise<Page<OfferRecord>> {
  const where = feedFilter(query);
  const [page, [count]] = await Promise.all([
    prisma.$queryRaw<{ id: string }[]>`
      SELECT o.id FROM offers o JOIN brands b ON b.id = o.brand_id WHERE ${where}
       ORDER BY (o.interests && ${preferredInterests}::text[]) DESC, o.opened_at DESC, o.id DESC
       LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
    prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM offers o JOIN brands b ON b.id = o.brand_id WHERE ${where}`,
  ]);
  const ids = page.map((row) => row.id);
  const rows = ids.length
    ? await prisma.offer.findMany({ where: { id: { in: ids } }, include: offerSnapshot })
    : [];
  const byId = new Map(rows.map((row) => [row.id, toOfferRecord(row)]));
  return {
    items: ids.flatMap((id) => byId.get(id) ?? []),
    page: query.page,
    pageSize: query.pageSize,
    total: count?.n ?? 0,
  };
}
