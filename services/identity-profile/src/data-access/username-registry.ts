/**
 * The username registry (table `usernames`): one row per username in use,
 * by a creator or a brand (spec §5: unique across both). Its primary key is
 * the final arbiter of races. Creators' rows are kept by a trigger on
 * `users` (see the `username_registry` migration); brands' rows are claimed
 * and released here, for services/brand, and in the brand registration's
 * transaction (`./brand-user-repository`).
 */
import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** Another owner holds the username. */
export class UsernameHeldError extends Error {
  constructor(options?: ErrorOptions) {
    super('username held by another owner', options);
    this.name = 'UsernameHeldError';
  }
}

export type UsernameOwnerType = 'user' | 'brand';

export interface UsernameRegistry {
  /**
   * Reserves the (normalised) username for the owner; holding it already is fine.
   * @throws UsernameHeldError when another owner holds it
   */
  claim(username: string, ownerType: UsernameOwnerType, ownerId: string): Promise<void>;
  /** Frees the username if this owner holds it (otherwise nothing happens). */
  release(username: string, ownerType: UsernameOwnerType, ownerId: string): Promise<void>;
}

/** The registry over the service's Prisma client. */
export function usernameRegistry(prisma: PrismaClient): UsernameRegistry {
  return {
    async claim(username, ownerType, ownerId) {
      try {
        await prisma.usernameClaim.create({ data: { username, ownerType, ownerId } });
        return;
      } catch (error) {
        if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002'))
          throw error;
      }
      const holder = await prisma.usernameClaim.findUnique({ where: { username } });
      if (holder?.ownerType !== ownerType || holder.ownerId !== ownerId)
        throw new UsernameHeldError();
    },
    async release(username, ownerType, ownerId) {
      await prisma.usernameClaim.deleteMany({ where: { username, ownerType, ownerId } });
    },
  };
}
