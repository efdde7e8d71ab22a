/**
 * Sets a user's profileImg or coverImg from an image media stored, with
 * `identity.user.updated`, in one transaction (spec §7).
 */
import type { ImageKind } from '@raly/contracts/images';
import type { UserRecord } from '@raly/contracts/records';
import type { PrismaClient } from '../generated/prisma/client';
import { userUpdatedEvent } from '../messaging/user-events';
import { toUserRecord } from './user-repository';

export interface UserImageRepository {
  /**
   * Sets the field to `url` unless it already is `url` or (`onlyIfEmpty`, for
   * default pictures) already holds an image.
   * @returns the new snapshot, or null when nothing changed or no such user exists
   */
  setWithEvent(
    userId: string,
    kind: ImageKind,
    url: string,
    onlyIfEmpty: boolean,
  ): Promise<UserRecord | null>;
}

/** The repository over the service's Prisma client. */
export function userImageRepository(prisma: PrismaClient): UserImageRepository {
  return {
    setWithEvent: (userId, kind, url, onlyIfEmpty) =>
      setImage(prisma, userId, kind, url, onlyIfEmpty),
  };
}

async function setImage(
  prisma: PrismaClient,
  userId: string,
  kind: ImageKind,
  url: string,
  onlyIfEmpty: boolean,
): Promise<UserRecord | null> {
  const column = kind === 'profile' ? 'profileImg' : 'coverImg';
  const unlessAlready = onlyIfEmpty ? { [column]: '' } : { NOT: { [column]: url } };
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId, ...unlessAlready },
      data: { [column]: url, version: { increment: 1 } },
    });
    if (count === 0) return null;
    const record = toUserRecord(await tx.user.findUniqueOrThrow({ where: { id: userId } }));
    await tx.outboxMessage.create({ data: userUpdatedEvent(record) });
    return record;
  });
}
