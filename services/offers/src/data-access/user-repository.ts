/**
 * The service's copy of users (table `users`), fed by `identity.user.v1`
 * and by `GET /users/me` for a caller whose event has not arrived yet. Public
 * fields and what the offer rules need only: never a first name, last name,
 * e-mail or phone number. Writes are version-checked: an older snapshot
 * never replaces a newer one, whichever path brings it.
 */
import type { Interest } from '@raly/contracts/constants';
import { isUuid, type Queryable } from './sql';
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

interface UserRow {
  id: string;
  version: number;
  username: string;
  profile_img: string;
  cover_img: string;
  interests: string[];
  socials_x: string;
  socials_instagram: string;
  socials_threads: string;
  brand_id: string | null;
  is_onboarded: boolean;
  is_suspended: boolean;
  notifications_offers: boolean;
}

const toKnownUser = (row: UserRow): KnownUser => ({
  id: row.id,
  version: row.version,
  username: row.username,
  profileImg: row.profile_img,
  coverImg: row.cover_img,
  interests: knownInterests(row.interests),
  socials: { x: row.socials_x, instagram: row.socials_instagram, threads: row.socials_threads },
  brandId: row.brand_id,
  isOnboarded: row.is_onboarded,
  isSuspended: row.is_suspended,
  notificationsOffers: row.notifications_offers,
});

/** The repository over the service's pg pool. */
export function userRepository(db: Queryable): UserRepository {
  const findById = async (id: string) => {
    const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0] ? toKnownUser(rows[0]) : null;
  };
  return {
    findById,
    async save(user) {
      // A brand id that is not a uuid names no brand of ours: kept as null.
      const brandId = user.brandId && isUuid(user.brandId) ? user.brandId : null;
      await db.query(
        `INSERT INTO users (id, version, username, profile_img, cover_img, interests, socials_x,
                            socials_instagram, socials_threads, brand_id, is_onboarded,
                            is_suspended, notifications_offers)
         VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (id) DO UPDATE SET
           version = EXCLUDED.version, username = EXCLUDED.username,
           profile_img = EXCLUDED.profile_img, cover_img = EXCLUDED.cover_img,
           interests = EXCLUDED.interests, socials_x = EXCLUDED.socials_x,
           socials_instagram = EXCLUDED.socials_instagram,
           socials_threads = EXCLUDED.socials_threads, brand_id = EXCLUDED.brand_id,
           is_onboarded = EXCLUDED.is_onboarded, is_suspended = EXCLUDED.is_suspended,
           notifications_offers = EXCLUDED.notifications_offers, updated_at = now()
         WHERE users.version < EXCLUDED.version`,
        [
          user.id,
          user.version,
          user.username,
          user.profileImg,
          user.coverImg,
          user.interests,
          user.socials.x,
          user.socials.instagram,
          user.socials.threads,
          brandId,
          user.isOnboarded,
          user.isSuspended,
          user.notificationsOffers,
        ],
      );
      return (await findById(user.id)) ?? user;
    },
  };
}
