/**
 * Sets a user's profileImg or coverImg from an image media stored, with the
 * event the domain chose (`identity.user.updated`), in one transaction (spec §7).
 */
import type { ImageKind } from '@raly/contracts/images';
import type { UserRecord } from '@raly/contracts/records';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { IdentityEvents } from './database';
import { toUserRecord } from './user-repository';

export interface UserImageRepository {
  /**
   * Sets the field to `url` unless it already is `url` or (`onlyIfEmpty`, for
   * default pictures) already holds an image, and records `event(snapshot)`.
   * @returns the new snapshot, or null when nothing changed or no such user exists
   */
  setWithEvent(
    userId: string,
    kind: ImageKind,
    url: string,
    onlyIfEmpty: boolean,
    event: RaiseEvent<UserRecord>,
  ): Promise<UserRecord | null>;
}

/** The repository over the service's event writer. */
export function userImageRepository(events: IdentityEvents): UserImageRepository {
  return {
    setWithEvent: (userId, kind, url, onlyIfEmpty, event) =>
      setImage(events, userId, kind, url, onlyIfEmpty, event),
  };
}

async function setImage(
  events: IdentityEvents,
  userId: string,
  kind: ImageKind,
  url: string,
  onlyIfEmpty: boolean,
  event: RaiseEvent<UserRecord>,
): Promise<UserRecord | null> {
  const column = kind === 'profile' ? 'profileImg' : 'coverImg';
  const unlessAlready = onlyIfEmpty ? { [column]: '' } : { NOT: { [column]: url } };
  return events.transaction(async (tx, recordEvent) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId, ...unlessAlready },
      data: { [column]: url, version: { increment: 1 } },
    });
    if (count === 0) return null;
    const record = toUserRecord(await tx.user.findUniqueOrThrow({ where: { id: userId } }));
    await recordEvent(event(record));
    return record;
  });
}
