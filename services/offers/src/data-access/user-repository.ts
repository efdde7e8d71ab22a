/**
 * The service's copy of users (table `users`), fed by `identity.user.v1`
 * and by `GET /users/me` for a caller whose event has not arrived yet. Public
 * fields and what the offer rules need only: never a first name, last name,
 * e-mail or phone number. Writes are version-checked: an older snapshot
 * never replaces a newer one, whichever path brings it. A save is one
 * prepared statement on the service's pg pool (an insert that updates an
 * older copy instead), not Prisma's: every `identity.user.v1` event writes one.
 */
import type { Interest } from '@raly/contracts/constants';
import type { Pool } from 'pg';
import type { PrismaClient, User } from '../generated/prisma/client';
import { isUuid } from './database';
import { knownInterests } from './snapshots';

/** What the offers service knows of a user. */
export interface KnownUser {
  id: string;
  /** The user record's version this copy was made from. */
  version: number;
  username: string;
  profileImg: string;
  coverImg: string;
  interests: Interest[];
  socials: { x: string; instagram: string; threads: string };
  /** The brand the user is a member of (a brand user), else null (a creator). */
  brandId: string | null;
  isOnboarded: boolean;
  isSuspended: boolean;
  notificationsOffers: boolean;
}

export interface UserRepository {
  findById(id: string): Promise<KnownUser | null>;
  /**
   * Saves the copy unless the stored one is as new or newer (by version).
   * @returns the copy stored afterwards (this one, or the newer one kept)
   */
  save(user: KnownUser): Promise<KnownUser>;
}

const toKnownUser = (row: User): KnownUser => ({
  id: row.id,
  version: row.version,
  username: row.username,
  profileImg: row.profileImg,
  coverImg: row.coverImg,
  interests: knownInterests(row.interests),
  socials: { x: row.socialsX, instagram: row.socialsInstagram, threads: row.socialsThreads },
  brandId: row.brandId,
  isOnboarded: row.isOnboarded,
  isSuspended: row.isSuspended,
  notificationsOffers: row.notificationsOffers,
});

/**
 * Inserts a copy, or updates the stored one when it is older: the row comes back when this copy
 * was stored, none when the stored one is as new or newer.
 */
const saveStatement = `INSERT INTO users (id, version, username, profile_img, cover_img, interests,
  socials_x, socials_instagram, socials_threads, brand_id, is_onboarded, is_suspended,
  notifications_offers, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())
ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, username = EXCLUDED.username,
  profile_img = EXCLUDED.profile_img, cover_img = EXCLUDED.cover_img,
  interests = EXCLUDED.interests, socials_x = EXCLUDED.socials_x,
  socials_instagram = EXCLUDED.socials_instagram, socials_threads = EXCLUDED.socials_threads,
  brand_id = EXCLUDED.brand_id, is_onboarded = EXCLUDED.is_onboarded,
  is_suspended = EXCLUDED.is_suspended, notifications_offers = EXCLUDED.notifications_offers,
  updated_at = now()
WHERE users.version < EXCLUDED.version
RETURNING id`;

/**
 * The repository over the service's database.
 * @param prisma reads
 * @param pool the pool under `prisma`: saves ({@link saveStatement})
 */
export function userRepository(prisma: PrismaClient, pool: Pool): UserRepository {
  const findById = async (id: string) => {
    const row = await prisma.user.findUnique({ where: { id } });
    return row ? toKnownUser(row) : null;
  };
  return {
    findById,
    async save(user) {
      const { id, socials, ...fields } = user;
      // A brand id that is not a uuid names no brand of ours: kept as null.
      const brandId = user.brandId && isUuid(user.brandId) ? user.brandId : null;
      const { rowCount } = await pool.query({
        name: 'users-save',
        text: saveStatement,
        values: [
          id,
          fields.version,
          fields.username,
          fields.profileImg,
          fields.coverImg,
          fields.interests,
          socials.x,
          socials.instagram,
          socials.threads,
          brandId,
          fields.isOnboarded,
          fields.isSuspended,
          fields.notificationsOffers,
        ],
      });
      return rowCount ? { ...user, brandId } : ((await findById(id)) ?? user);
    },
  };
}
