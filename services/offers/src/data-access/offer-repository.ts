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
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { isUuid, type OffersEventWriter, type Transaction } from './database';
import { readFeed } from './offer-feed';
import { lockExpiredOffers, lockOffer } from './row-locks';
import { offerSnapshot, toOfferRecord, type OfferRow } from './snapshots';

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
  /** True stamps `opened_at` / `closed_at` with the time of the change. */
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

/** The columns `changes` sets, with the version incremented; `opened` / `closed` stamp now. */
function offerUpdate(changes: OfferChanges): Prisma.OfferUpdateManyMutationInput {
  const { opened, closed, applyBy, ...columns } = changes;
  const now = new Date();
  return {
    ...columns,
    ...(applyBy !== undefined && { applyBy: new Date(applyBy) }),
    ...(opened && { openedAt: now }),
    ...(closed && { closedAt: now }),
    version: { increment: 1 },
  };
}

/**
 * Applies `changes` to an offer locked in `tx` (version + 1).
 * @param current the offer as read under the lock
 * @returns the snapshot after the change
 */
export async function updateLockedOffer(
  tx: Transaction,
  current: OfferRow,
  changes: OfferChanges,
): Promise<OfferRecord> {
  const row = await tx.offer.update({ where: { id: current.id }, data: offerUpdate(changes) });
  return toOfferRecord({ ...row, brand: current.brand });
}

const noApplications = (): ApplicationCounts => ({
  pending: 0,
  accepted: 0,
  declined: 0,
  withdrawn: 0,
});

/** The repository over the service's Prisma client; `events` for every write. */
export function offerRepository(prisma: PrismaClient, events: OffersEventWriter): OfferRepository {
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.offer.findUnique({ where: { id }, include: offerSnapshot });
      return row ? toOfferRecord(row) : null;
    },
    createWithEvent: (offer, event) =>
      events.transaction(async (tx, record) => {
        const row = await tx.offer.create({
          data: {
            ...offer,
            applyBy: new Date(offer.applyBy),
            openedAt: offer.status === 'open' ? new Date() : null,
          },
          include: offerSnapshot,
        });
        const created = toOfferRecord(row);
        await record(event(created));
        return created;
      }),
    async changeWithEvent(id, decide, event) {
      if (!isUuid(id)) return null;
      return events.transaction(async (tx, record) => {
        if (!(await lockOffer(tx, id, 'update'))) return null;
        const current = await tx.offer.findUniqueOrThrow({ where: { id }, include: offerSnapshot });
        const changes = decide(toOfferRecord(current));
        if (!changes) return toOfferRecord(current);
        const changed = await updateLockedOffer(tx, current, changes);
        await record(event(changed));
        return changed;
      });
    },
    feed: (query, preferredInterests) => readFeed(prisma, query, preferredInterests),
    async listByBrand(brandId) {
      if (!isUuid(brandId)) return [];
      const [offers, counts] = await Promise.all([
        prisma.offer.findMany({
          where: { brandId },
          include: offerSnapshot,
          orderBy: [{ created: 'desc' }, { id: 'desc' }],
        }),
        prisma.application.groupBy({
          by: ['offerId', 'status'],
          where: { brandId },
          _count: { _all: true },
        }),
      ]);
      const countsByOffer = new Map<string, ApplicationCounts>();
      for (const { offerId, status, _count } of counts) {
        const applicationCounts = countsByOffer.get(offerId) ?? noApplications();
        applicationCounts[status] = _count._all;
        countsByOffer.set(offerId, applicationCounts);
      }
      return offers.map((row) => ({
        ...toOfferRecord(row),
        applicationCounts: countsByOffer.get(row.id) ?? noApplications(),
      }));
    },
    async listOpenByBrand(brandId, limit) {
      if (!isUuid(brandId)) return [];
      const rows = await prisma.offer.findMany({
        where: { brandId, status: 'open', applyBy: { gt: new Date() } },
        include: offerSnapshot,
        orderBy: [{ openedAt: 'desc' }, { id: 'desc' }],
        take: limit,
      });
      return rows.map(toOfferRecord);
    },
    closeExpiredWithEvents: (limit, event) =>
      events.transaction(async (tx, record) => {
        const ids = await lockExpiredOffers(tx, limit);
        if (ids.length === 0) return [];
        const rows = await tx.offer.updateManyAndReturn({
          where: { id: { in: ids } },
          data: offerUpdate({ status: 'closed', closedReason: 'deadline', closed: true }),
          include: offerSnapshot,
        });
        const closed = rows.map(toOfferRecord);
        await record(...closed.map(event));
        return closed;
      }),
  };
}
