/**
 * Offers in Postgres (the only module that writes the `offers` table). Every
 * write commits the change, the incremented version and the integration
 * event the domain chose (`../domain/events`), built from the written
 * snapshot, in one transaction. A change is decided by the domain on the
 * offer as it is under a row lock (`SELECT … FOR UPDATE`), so two changes
 * of one offer never decide on the same state.
 */
import type {
  ApplicationCounts,
  BrandOffer,
  Compensation,
  OfferRecord,
  OffersQuery,
  Page,
} from '@raly/contracts/offers';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { Pool } from 'pg';
import { offerColumns, offerSource, toOfferRecord, type OfferRow } from './snapshots';
import { inTransaction, insertOutboxRow, isUuid, type Queryable } from './sql';

/** A new offer (the form's fields, parsed). */
export interface NewOffer {
  id: string;
  brandId: string;
  title: string;
  brief: string;
  interests: string[];
  platforms: string[];
  deliverables: string;
  compensation: Compensation;
  creatorsWanted: number;
  applyBy: string;
  status: 'draft' | 'open';
}

/** The columns a change may set. */
export interface OfferChanges {
  title?: string;
  brief?: string;
  interests?: string[];
  platforms?: string[];
  deliverables?: string;
  compensation?: Compensation;
  creatorsWanted?: number;
  applyBy?: string;
  placesFilled?: number;
  status?: OfferRecord['status'];
  closedReason?: OfferRecord['closedReason'];
  /** True sets `opened_at` / `closed_at` to the transaction's time. */
  opened?: boolean;
  closed?: boolean;
}

/**
 * Decides a change on the offer as it is under the row lock.
 * @returns the changes, or null when nothing changes (no version, no event)
 * @throws an AppError to refuse (the transaction is rolled back)
 */
export type DecideOfferChange = (current: OfferRecord) => OfferChanges | null;

export interface OfferRepository {
  findById(id: string): Promise<OfferRecord | null>;
  /** Inserts the offer and `event(snapshot)` in one transaction. */
  createWithEvent(offer: NewOffer, event: RaiseEvent<OfferRecord>): Promise<OfferRecord>;
  /**
   * Locks the offer, asks `decide`, applies its changes with the version
   * incremented and records `event(snapshot)`, in one transaction.
   * @returns the snapshot after the change (unchanged when `decide` said null), or null when no such offer exists
   * @throws what `decide` throws
   */
  changeWithEvent(
    id: string,
    decide: DecideOfferChange,
    event: RaiseEvent<OfferRecord>,
  ): Promise<OfferRecord | null>;
  /**
   * The feed: open offers before their apply-by date, filtered by any of the
   * interests and platforms and by `q` in title, brief, brand company and
   * username (case-insensitive, wildcards taken literally); those sharing an
   * interest with `preferredInterests` first, then newest opened first.
   */
  feed(query: OffersQuery, preferredInterests: string[]): Promise<Page<OfferRecord>>;
  /** Every offer of a brand, newest first, with its applications counted by status. */
  listByBrand(brandId: string): Promise<BrandOffer[]>;
  /** A brand's open offers before their apply-by date, newest opened first, at most `limit`. */
  listOpenByBrand(brandId: string, limit: number): Promise<OfferRecord[]>;
  /**
   * Closes (reason `deadline`) up to `limit` open offers whose apply-by date
   * has passed, each with `event(snapshot)`, in one transaction. Rows another
   * instance holds are skipped (`FOR UPDATE SKIP LOCKED`).
   * @returns the offers closed
   */
  closeExpiredWithEvents(limit: number, event: RaiseEvent<OfferRecord>): Promise<OfferRecord[]>;
}

/** Reads one offer snapshot on `db` (a pool or a transaction's connection). */
export async function readOffer(db: Queryable, id: string): Promise<OfferRecord | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<OfferRow>(
    `SELECT ${offerColumns} FROM ${offerSource} WHERE o.id = $1`,
    [id],
  );
  return rows[0] ? toOfferRecord(rows[0]) : null;
}

const changeColumns: Record<
  Exclude<keyof OfferChanges, 'opened' | 'closed'>,
  { column: string; cast?: string; json?: boolean }
> = {
  title: { column: 'title' },
  brief: { column: 'brief' },
  interests: { column: 'interests', cast: 'text[]' },
  platforms: { column: 'platforms', cast: 'text[]' },
  deliverables: { column: 'deliverables' },
  compensation: { column: 'compensation', cast: 'jsonb', json: true },
  creatorsWanted: { column: 'creators_wanted' },
  applyBy: { column: 'apply_by', cast: 'timestamptz' },
  placesFilled: { column: 'places_filled' },
  status: { column: 'status', cast: '"OfferStatus"' },
  closedReason: { column: 'closed_reason', cast: '"OfferClosedReason"' },
};

/**
 * Applies `changes` to one locked offer on `client` (version + 1) and records `event`.
 * @returns the snapshot after the change
 */
export async function applyOfferChanges(
  client: Queryable,
  id: string,
  changes: OfferChanges,
  event: RaiseEvent<OfferRecord>,
): Promise<OfferRecord> {
  const assignments = ['version = version + 1', 'updated_at = now()'];
  const values: unknown[] = [id];
  for (const [field, spec] of Object.entries(changeColumns)) {
    const value = changes[field as keyof typeof changeColumns];
    if (value === undefined) continue;
    values.push(spec.json ? JSON.stringify(value) : value);
    assignments.push(`${spec.column} = $${values.length}${spec.cast ? `::${spec.cast}` : ''}`);
  }
  if (changes.opened) assignments.push('opened_at = now()');
  if (changes.closed) assignments.push('closed_at = now()');
  await client.query(`UPDATE offers SET ${assignments.join(', ')} WHERE id = $1`, values);
  const record = (await readOffer(client, id))!;
  await insertOutboxRow(client, event(record));
  return record;
}

/** `%q%` for ILIKE with `\`, `%` and `_` taken literally (ESCAPE '\'). */
export const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, '\\$&')}%`;

interface CountRow {
  offer_id: string;
  status: keyof ApplicationCounts;
  n: number;
}

/** The repository over the service's pg pool. */
export function offerRepository(pool: Pool): OfferRepository {
  return {
    findById: (id) => readOffer(pool, id),
    async createWithEvent(offer, event) {
      return inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO offers (id, brand_id, title, brief, interests, platforms, deliverables,
                               compensation, creators_wanted, apply_by, status, opened_at)
           VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7, $8::jsonb, $9, $10::timestamptz,
                   $11::"OfferStatus", CASE WHEN $12::boolean THEN now() END)`,
          [
            offer.id,
            offer.brandId,
            offer.title,
            offer.brief,
            offer.interests,
            offer.platforms,
            offer.deliverables,
            JSON.stringify(offer.compensation),
            offer.creatorsWanted,
            offer.applyBy,
            offer.status,
            offer.status === 'open',
          ],
        );
        const record = (await readOffer(client, offer.id))!;
        await insertOutboxRow(client, event(record));
        return record;
      });
    },
    async changeWithEvent(id, decide, event) {
      if (!isUuid(id)) return null;
      return inTransaction(pool, async (client) => {
        const { rowCount } = await client.query('SELECT 1 FROM offers WHERE id = $1 FOR UPDATE', [
          id,
        ]);
        if (!rowCount) return null;
        const current = (await readOffer(client, id))!;
        const changes = decide(current);
        if (!changes) return current;
        return applyOfferChanges(client, id, changes, event);
      });
    },
    async feed(query, preferredInterests) {
      const values: unknown[] = [];
      const param = (value: unknown, cast = '') => {
        values.push(value);
        return `$${values.length}${cast}`;
      };
      const conditions = [`o.status = 'open'`, `o.apply_by > now()`];
      if (query.interest?.length)
        conditions.push(`o.interests && ${param(query.interest, '::text[]')}`);
      if (query.platform?.length)
        conditions.push(`o.platforms && ${param(query.platform, '::text[]')}`);
      if (query.q) {
        const pattern = param(containsPattern(query.q));
        conditions.push(
          `(${['o.title', 'o.brief', 'b.company', 'b.username']
            .map((column) => `${column} ILIKE ${pattern} ESCAPE '\\'`)
            .join(' OR ')})`,
        );
      }
      const where = conditions.join(' AND ');
      const filterValues = [...values];
      const preferred = param(preferredInterests, '::text[]');
      const limit = param(query.pageSize);
      const offset = param((query.page - 1) * query.pageSize);
      const [page, count] = await Promise.all([
        pool.query<OfferRow>(
          `SELECT ${offerColumns} FROM ${offerSource} WHERE ${where}
            ORDER BY (o.interests && ${preferred}) DESC, o.opened_at DESC, o.id DESC
            LIMIT ${limit} OFFSET ${offset}`,
          values,
        ),
        pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${offerSource} WHERE ${where}`,
          filterValues,
        ),
      ]);
      return {
        items: page.rows.map(toOfferRecord),
        page: query.page,
        pageSize: query.pageSize,
        total: count.rows[0]?.n ?? 0,
      };
    },
    async listByBrand(brandId) {
      if (!isUuid(brandId)) return [];
      const [offers, counts] = await Promise.all([
        pool.query<OfferRow>(
          `SELECT ${offerColumns} FROM ${offerSource} WHERE o.brand_id = $1
            ORDER BY o.created DESC, o.id DESC`,
          [brandId],
        ),
        pool.query<CountRow>(
          `SELECT offer_id, status, count(*)::int AS n FROM applications
            WHERE brand_id = $1 GROUP BY offer_id, status`,
          [brandId],
        ),
      ]);
      return offers.rows.map((row) => {
        const applicationCounts: ApplicationCounts = {
          pending: 0,
          accepted: 0,
          declined: 0,
          withdrawn: 0,
        };
        for (const count of counts.rows)
          if (count.offer_id === row.id) applicationCounts[count.status] = count.n;
        return { ...toOfferRecord(row), applicationCounts };
      });
    },
    async listOpenByBrand(brandId, limit) {
      if (!isUuid(brandId)) return [];
      const { rows } = await pool.query<OfferRow>(
        `SELECT ${offerColumns} FROM ${offerSource}
          WHERE o.brand_id = $1 AND o.status = 'open' AND o.apply_by > now()
          ORDER BY o.opened_at DESC, o.id DESC LIMIT $2`,
        [brandId, limit],
      );
      return rows.map(toOfferRecord);
    },
    async closeExpiredWithEvents(limit, event) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ id: string }>(
          `SELECT id FROM offers WHERE status = 'open' AND apply_by <= now()
            ORDER BY apply_by LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [limit],
        );
        const closed: OfferRecord[] = [];
        for (const { id } of rows) {
          closed.push(
            await applyOfferChanges(
              client,
              id,
              { status: 'closed', closedReason: 'deadline', closed: true },
              event,
            ),
          );
        }
        return closed;
      });
    },
  };
}
