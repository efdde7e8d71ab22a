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
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { Pool } from 'pg';
import { applyOfferChanges, readOffer, type OfferChanges } from './offer-repository';
import {
  applicationColumns,
  applicationSource,
  toApplicationRecord,
  type ApplicationRow,
} from './snapshots';
import { inTransaction, insertOutboxRow, isUuid, type Queryable } from './sql';

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
   * applies the new status (`decided_at` now unless withdrawn) and the
   * offer's changes, with their events, in one transaction.
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

async function readApplication(db: Queryable, id: string): Promise<ApplicationRecord | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<ApplicationRow>(
    `SELECT ${applicationColumns} FROM ${applicationSource} WHERE a.id = $1`,
    [id],
  );
  return rows[0] ? toApplicationRecord(rows[0]) : null;
}

/** The repository over the service's pg pool. */
export function applicationRepository(pool: Pool): ApplicationRepository {
  const list = async (column: 'offer_id' | 'creator_id', value: string) => {
    const { rows } = await pool.query<ApplicationRow>(
      `SELECT ${applicationColumns} FROM ${applicationSource} WHERE a.${column} = $1
        ORDER BY a.created DESC, a.id DESC`,
      [value],
    );
    return rows.map(toApplicationRecord);
  };
  return {
    findById: (id) => readApplication(pool, id),
    async createWithEvent(application, check, event) {
      if (!isUuid(application.offerId)) return null;
      try {
        return await inTransaction(pool, async (client) => {
          const { rowCount } = await client.query('SELECT 1 FROM offers WHERE id = $1 FOR SHARE', [
            application.offerId,
          ]);
          if (!rowCount) return null;
          const offer = (await readOffer(client, application.offerId))!;
          check(offer);
          await client.query(
            `INSERT INTO applications (id, offer_id, brand_id, creator_id, pitch, proposed_rate)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
            [
              application.id,
              offer.id,
              offer.brandId,
              application.creatorId,
              application.pitch,
              application.proposedRate ? JSON.stringify(application.proposedRate) : null,
            ],
          );
          const record = (await readApplication(client, application.id))!;
          await insertOutboxRow(client, event(record));
          return record;
        });
      } catch (error) {
        if (uniqueViolationOf(error)?.constraint === 'applications_offer_id_creator_id_key')
          throw new DuplicateApplicationError({ cause: error });
        throw error;
      }
    },
    async decideWithEvents(id, decide, event) {
      if (!isUuid(id)) return null;
      return inTransaction(pool, async (client) => {
        const found = await client.query<{ offer_id: string }>(
          'SELECT offer_id FROM applications WHERE id = $1',
          [id],
        );
        const offerId = found.rows[0]?.offer_id;
        if (!offerId) return null;
        await client.query('SELECT 1 FROM offers WHERE id = $1 FOR UPDATE', [offerId]);
        await client.query('SELECT 1 FROM applications WHERE id = $1 FOR UPDATE', [id]);
        const application = (await readApplication(client, id))!;
        const offer = (await readOffer(client, offerId))!;
        const decision = decide(application, offer);
        if (decision.offer)
          await applyOfferChanges(client, offerId, decision.offer.changes, decision.offer.event);
        await client.query(
          `UPDATE applications SET status = $2::"ApplicationStatus", version = version + 1,
                  decided_at = CASE WHEN $3::boolean THEN now() END,
                  updated_at = now()
            WHERE id = $1`,
          [id, decision.status, decision.status !== 'withdrawn'],
        );
        const record = (await readApplication(client, id))!;
        await insertOutboxRow(client, event(record));
        return record;
      });
    },
    listByOffer: (offerId) => (isUuid(offerId) ? list('offer_id', offerId) : Promise.resolve([])),
    listByCreator: (creatorId) => list('creator_id', creatorId),
  };
}
