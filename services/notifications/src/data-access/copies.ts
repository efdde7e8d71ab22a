/**
 * The copies this service keeps of other services' aggregates, each written
 * only when its version is higher than the stored one (a redelivered or
 * older snapshot changes nothing): people (from `identity.user.v1`: their
 * brand, interests and whether they want offers) and collaborations (from
 * `collaborations.collaboration.v1`: their parties and display fields).
 * A person, written for every `identity.user.v1` event, and the look-up
 * of each message's recipients are one prepared statement each on the
 * service's pg pool, not Prisma queries.
 */
import type { Interest } from '@raly/contracts/constants';
import type { Pool } from 'pg';
import type { PrismaClient } from '../generated/prisma/client';

/** What notifications needs of a user: never a name, an e-mail or a phone number. */
export interface PersonCopy {
  id: string;
  version: number;
  brandId: string | null;
  interests: readonly Interest[];
  /** An onboarded creator with `notifications.offers` on. */
  wantsOffers: boolean;
}

/** What notifications needs of a collaboration. */
export interface CollaborationCopy {
  id: string;
  version: number;
  creatorId: string;
  brandId: string;
  offerId: string;
  offerTitle: string;
  /** The brand's public name (its company). */
  brandName: string;
  creatorUsername: string;
}

export interface Copies {
  /** Stores a person unless a version as high is stored. @returns true when stored */
  savePerson(person: PersonCopy): Promise<boolean>;
  /** The ids of a brand's members (people whose brand it is). */
  brandMembers(brandId: string): Promise<string[]>;
  /** Stores a collaboration unless a version as high is stored. @returns true when stored */
  saveCollaboration(collaboration: CollaborationCopy): Promise<boolean>;
  /**
   * The stored collaboration and the people of one of its sides (the creator; the brand's
   * members known here, by id), in one statement: a message's recipients.
   * @returns null when the collaboration is not known (yet)
   */
  collaborationWithSide(
    id: string,
    side: 'brand' | 'creator',
  ): Promise<{ collaboration: CollaborationCopy; people: string[] } | null>;
}

/** Inserts a person, or updates the stored copy when it is older (one row written, or none). */
const savePersonStatement = `INSERT INTO people (id, version, brand_id, interests, wants_offers, updated)
VALUES ($1, $2, $3, $4::text[], $5, now())
ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, brand_id = EXCLUDED.brand_id,
  interests = EXCLUDED.interests, wants_offers = EXCLUDED.wants_offers, updated = now()
WHERE people.version < EXCLUDED.version`;

/** A collaboration and one side's people ({@link Copies.collaborationWithSide}). */
const collaborationWithSideStatement = `SELECT c.id, c.version, c.creator_id AS "creatorId",
  c.brand_id AS "brandId", c.offer_id AS "offerId", c.offer_title AS "offerTitle",
  c.brand_name AS "brandName", c.creator_username AS "creatorUsername",
  CASE WHEN $2 = 'creator' THEN ARRAY[c.creator_id]
       ELSE ARRAY(SELECT p.id FROM people p WHERE p.brand_id = c.brand_id ORDER BY p.id) END AS people
FROM collaborations c WHERE c.id = $1`;

/**
 * @param prisma this service's client
 * @param pool the pool under `prisma`: people's saves ({@link savePersonStatement})
 */
export function copiesRepository(prisma: PrismaClient, pool: Pool): Copies {
  return {
    async savePerson(person) {
      const { rowCount } = await pool.query({
        name: 'people-save',
        text: savePersonStatement,
        values: [
          person.id,
          person.version,
          person.brandId,
          [...person.interests],
          person.wantsOffers,
        ],
      });
      return rowCount === 1;
    },
    async brandMembers(brandId) {
      const rows = await prisma.person.findMany({
        where: { brandId },
        select: { id: true },
        orderBy: { id: 'asc' },
      });
      return rows.map((row) => row.id);
    },
    async saveCollaboration(copy) {
      const stored = await prisma.$executeRaw`
        INSERT INTO collaborations (id, version, creator_id, brand_id, offer_id, offer_title,
                                    brand_name, creator_username, updated)
        VALUES (${copy.id}, ${copy.version}, ${copy.creatorId}, ${copy.brandId}, ${copy.offerId},
                ${copy.offerTitle}, ${copy.brandName}, ${copy.creatorUsername}, now())
        ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, offer_title = EXCLUDED.offer_title,
          brand_name = EXCLUDED.brand_name, creator_username = EXCLUDED.creator_username,
          updated = now()
        WHERE collaborations.version < EXCLUDED.version`;
      return stored === 1;
    },
    async collaborationWithSide(id, side) {
      const { rows } = await pool.query<CollaborationCopy & { people: string[] }>({
        name: 'collaboration-with-side',
        text: collaborationWithSideStatement,
        values: [id, side],
      });
      const row = rows[0];
      if (!row) return null;
      const { people, ...collaboration } = row;
      return { collaboration, people };
    },
  };
}
