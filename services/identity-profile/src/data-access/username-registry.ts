/**
 * The username registry (table `usernames`): one row per username in use,
 * by a creator or a brand (spec §5 requires uniqueness; across creators and
 * brands is our reading). Its primary key is
 * the final arbiter of races. Every claim and release is made here: for
 * services/brand through `POST /usernames/claim|release` (`../domain/usernames`),
 * and for a creator or a new brand inside the transaction that writes the
 * user (`./user-repository`, given a {@link UsernameChange}).
 */
import type { Prisma, PrismaClient } from '../generated/prisma/client';

/** Another owner holds the username. */
export class UsernameHeldError extends Error {
  constructor(options?: ErrorOptions) {
    super('username held by another owner', options);
    this.name = 'UsernameHeldError';
  }
}

/** `user` (a creator's username), `brand` (a brand's username) or `member` (a brand member's handle). */
export type UsernameOwnerType = 'user' | 'brand' | 'member';

/** One row of the registry: a (normalised) username and who holds it. */
export interface UsernameEntry {
  username: string;
  ownerType: UsernameOwnerType;
  /** The user id (creator, member) or the brand id. */
  ownerId: string;
}

/**
 * What a write does to the registry, decided by the domain
 * (`../domain/usernames` `usernameChange`): claim the new username, release
 * the old one; both commit with the write or not at all.
 */
export interface UsernameChange {
  claim?: UsernameEntry;
  release?: UsernameEntry;
}

export interface UsernameRegistry {
  /** True when a creator or a brand holds the (normalised) username. */
  isHeld(username: string): Promise<boolean>;
  /**
   * Reserves the username for the owner; holding it already is fine.
   * @throws UsernameHeldError when another owner holds it
   */
  claim(entry: UsernameEntry): Promise<void>;
  /** Frees the username if this owner holds it (otherwise nothing happens). */
  release(entry: UsernameEntry): Promise<void>;
  /** @returns the handle the member `userId` holds in their brand's team, or null (none chosen) */
  memberHandleOf(userId: string): Promise<string | null>;
}

/** The Prisma client or an open transaction of it. */
type RegistryClient = Pick<PrismaClient | Prisma.TransactionClient, 'usernameClaim'>;

/** The registry over the service's Prisma client. */
export function usernameRegistry(prisma: PrismaClient): UsernameRegistry {
  return {
    async isHeld(username) {
      return (await prisma.usernameClaim.count({ where: { username } })) > 0;
    },
    claim: (entry) => claimIn(prisma, entry),
    release: (entry) => releaseIn(prisma, entry),
    async memberHandleOf(userId) {
      const claim = await prisma.usernameClaim.findFirst({
        where: { ownerType: 'member', ownerId: userId },
        select: { username: true },
      });
      return claim?.username ?? null;
    },
  };
}

/**
 * {@link UsernameRegistry.claim} on `db` (inside a transaction too: the
 * insert skips a held key instead of failing, so the transaction stays
 * usable; a concurrent uncommitted claim makes it wait for that one's end).
 * @throws UsernameHeldError when another owner holds the username
 */
export async function claimIn(db: RegistryClient, entry: UsernameEntry): Promise<void> {
  const { count } = await db.usernameClaim.createMany({ data: [entry], skipDuplicates: true });
  if (count === 1) return;
  const holder = await db.usernameClaim.findUnique({ where: { username: entry.username } });
  if (holder?.ownerType !== entry.ownerType || holder.ownerId !== entry.ownerId)
    throw new UsernameHeldError();
}

/** {@link UsernameRegistry.release} on `db` (inside a transaction too). */
export async function releaseIn(db: RegistryClient, entry: UsernameEntry): Promise<void> {
  await db.usernameClaim.deleteMany({ where: entry });
}
