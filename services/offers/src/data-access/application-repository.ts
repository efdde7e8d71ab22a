/**
 * Applications in Postgres (the only module that writes the `applications`
 * table). Every write commits the change, the incremented version and its
 * integration events in one transaction. Decisions run under row locks taken
 * in one order, the offer first (`SELECT … FOR UPDATE`), then the
 * application, so concurrent accepts of one offer fill its places one after
 * the other and never more than it has.
 */
import type { ApplicationRecord, Money, OfferRecord } from '@raly/contracts/offers';
import { uniqueViolationOf } from '@raly/service-kit/errors';
import type { OutboxRow, RaiseEvent } from '@raly/service-kit/outbox';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { isUuid, type OffersEventWriter } from './database';
import { updateLockedOffer, type OfferChanges } from './offer-repository';
import { lockApplicationWithOffer, lockOffer } from './row-locks';
import {
  applicationSnapshot,
  offerSnapshot,
  toApplicationRecord,
  toOfferRecord,
} from './snapshots';

/** The creator already has an application to this offer (unique index `applications_offer_id_creator_id_key`). */
export class DuplicateApplicationError extends Error {
  constructor(options?: ErrorOptions) {
    super('duplicate application', options);
    this.name = 'DuplicateApplicationError';
  }
}

export interface NewApplication {
  id: string;
  offerId: string;
  creatorId: string;
  pitch: string;
  proposedRate: Money | null;
}

/** What a decision changes: the application's status, and optionally its offer. */
export interface ApplicationDecision {
  status: ApplicationRecord['status'];
  /** The handle in the brand's team of the member who accepts or declines; none for a withdrawal. */
  decidedByHandle?: string | null;
  /** Changes of the offer in the same transaction (a filled place), with their event. */
  offer?: { changes: OfferChanges; event: RaiseEvent<OfferRecord> };
}

/**
 * Decides on the application and its offer as they are under the row locks.
 * @throws an AppError to refuse (the transaction is rolled back)
 */
export type DecideApplication = (
  application: ApplicationRecord,
  offer: OfferRecord,
) => ApplicationDecision;

export interface ApplicationRepository {
  findById(id: string): Promise<ApplicationRecord | null>;
  /**
   * Locks the offer (FOR SHARE: no decision or close runs meanwhile), asks
   * `check` whether it takes the application, inserts it and records
   * `event(snapshot)`, in one transaction.
   * @returns the new snapshot, or null when the offer does not exist
   * @throws what `check` throws; DuplicateApplicationError
   */
  createWithEvent(
    application: NewApplication,
    check: (offer: OfferRecord) => void,
    event: RaiseEvent<ApplicationRecord>,
  ): Promise<ApplicationRecord | null>;
  /**
   * Locks the application's offer, then the application, asks `decide`,
   * applies the new status (`decided_at` now unless withdrawn, `decided_by_handle` as
   * decided) and the offer's changes, with their events, in one transaction.
   * @returns the application's snapshot after the change, or null when no such application exists
   * @throws what `decide` throws
   */
  decideWithEvents(
    id: string,
    decide: DecideApplication,
    event: RaiseEvent<ApplicationRecord>,
  ): Promise<ApplicationRecord | null>;
  /** An offer's applications, newest first. */
  listByOffer(offerId: string): Promise<ApplicationRecord[]>;
  /** A creator's applications, newest first. */
  listByCreator(creatorId: string): Promise<ApplicationRecord[]>;
}

/** What a decision reads: the application's snapshot with its whole offer. */
const decisionSnapshot = {
  ...applicationSnapshot,
  offer: { include: offerSnapshot },
} satisfies Prisma.ApplicationInclude;

/** The repository over the service's Prisma client; `events` for every write. */
export function applicationRepository(
  prisma: PrismaClient,
  events: OffersEventWriter,
): ApplicationRepository {
  const list = async (where: Prisma.ApplicationWhereInput) => {
    const rows = await prisma.application.findMany({
      where,
      include: applicationSnapshot,
      orderBy: [{ created: 'desc' }, { id: 'desc' }],
    });
    return rows.map(toApplicationRecord);
  };
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.application.findUnique({
        where: { id },
        include: applicationSnapshot,
      });
      return row ? toApplicationRecord(row) : null;
    },
    async createWithEvent(application, check, event) {
      if (!isUuid(application.offerId)) return null;
      try {
        return await events.transaction(async (tx, record) => {
          if (!(await lockOffer(tx, application.offerId, 'share'))) return null;
          const offer = toOfferRecord(
            await tx.offer.findUniqueOrThrow({
              where: { id: application.offerId },
              include: offerSnapshot,
            }),
          );
          check(offer);
          const { proposedRate, ...columns } = application;
          const row = await tx.application.create({
            data: {
              ...columns,
              brandId: offer.brandId,
              ...(proposedRate && { proposedRate }),
            },
            include: applicationSnapshot,
          });
          const created = toApplicationRecord(row);
          await record(event(created));
          return created;
        });
      } catch (error) {
        if (uniqueViolationOf(error)?.constraint === 'applications_offer_id_creator_id_key')
          throw new DuplicateApplicationError({ cause: error });
        throw error;
      }
    },
    async decideWithEvents(id, decide, event) {
      if (!isUuid(id)) return null;
      return events.transaction(async (tx, record) => {
        if (!(await lockApplicationWithOffer(tx, id))) return null;
        const current = await tx.application.findUniqueOrThrow({
          where: { id },
          include: decisionSnapshot,
        });
        const decision = decide(toApplicationRecord(current), toOfferRecord(current.offer));
        const offerEvents: OutboxRow[] = [];
        if (decision.offer) {
          const { changes, event: offerEvent } = decision.offer;
          offerEvents.push(offerEvent(await updateLockedOffer(tx, current.offer, changes)));
        }
        const row = await tx.application.update({
          where: { id },
          data: {
            status: decision.status,
            version: { increment: 1 },
            decidedAt: decision.status === 'withdrawn' ? null : new Date(),
            decidedByHandle: decision.decidedByHandle ?? null,
          },
        });
        const decided = toApplicationRecord({ ...current, ...row });
        await record(...offerEvents, event(decided));
        return decided;
      });
    },
    listByOffer: async (offerId) => (isUuid(offerId) ? list({ offerId }) : []),
    listByCreator: (creatorId) => list({ creatorId }),
  };
}
