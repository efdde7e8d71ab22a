/**
 * The service's copy of users (table `users`), fed by `identity.user.v1`
 * and by `GET /users/me` for a caller whose event has not arrived yet. Public
 * fields and what the offer rules need only: never a first name, last name,
 * e-mail or phone number. Writes are version-checked: an older snapshot
 * never replaces a newer one, whichever path brings it.
 */
import type { Interest } from '@raly/contracts/constants';
import type { PrismaClient, User } from '../generated/prisma/client';
import { storeIfNewer } from './copies';
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

/** The repository over the service's Prisma client. */
export function userRepository(prisma: PrismaClient): UserRepository {
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
      const columns = {
        ...fields,
        brandId,
        socialsX: socials.x,
        socialsInstagram: socials.instagram,
        socialsThreads: socials.threads,
      };
      const stored = await storeIfNewer({
        updateOlder: () =>
          prisma.user.updateMany({ where: { id, version: { lt: user.version } }, data: columns }),
        insertAbsent: () =>
          prisma.user.createMany({ data: { id, ...columns }, skipDuplicates: true }),
      });
      return stored ? { ...user, brandId } : ((await findById(id)) ?? user);
    },
  };
}
