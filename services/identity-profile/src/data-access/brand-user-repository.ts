/**
 * The last step of a brand registration: the brand-side user record, the
 * brand's claim in the username registry and `identity.user.created`, in
 * one transaction — so the registry's key decides a username race here too.
 */
import type { UserRecord } from '@raly/contracts/records';
import type { PrismaClient } from '../generated/prisma/client';
import { userCreatedEvent } from '../messaging/user-events';
import { toUserRecord, translateDuplicates, type NewUser } from './user-repository';

export interface BrandUserRepository {
  /**
   * Inserts the brand user, claims the brand's username and records the event.
   * @param brandUsername the brand's (normalised) username, claimed for `user.brandId`
   * @throws DuplicateUserError (`username` when the registry holds it, `email`, `id`)
   */
  insertWithClaim(user: NewUser & { brandId: string }, brandUsername: string): Promise<UserRecord>;
}

/** The repository over the service's Prisma client. */
export function brandUserRepository(prisma: PrismaClient): BrandUserRepository {
  return {
    insertWithClaim: (user, brandUsername) =>
      translateDuplicates(() =>
        prisma.$transaction(async (tx) => {
          await tx.usernameClaim.create({
            data: { username: brandUsername, ownerType: 'brand', ownerId: user.brandId },
          });
          const record = toUserRecord(await tx.user.create({ data: user }));
          await tx.outboxMessage.create({ data: userCreatedEvent(record) });
          return record;
        }),
      ),
  };
}
