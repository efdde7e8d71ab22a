/**
 * What the offers service knows of users: the public copy kept from
 * `identity.user.v1` (version-checked), and the caller of a request, read
 * from that copy or, when their event has not arrived yet, from
 * identity-profile (`GET /users/me` with their access token) and saved the
 * same version-checked way. A rule that would refuse the caller on the copy
 * asks identity-profile once more before refusing, so a copy an event has
 * not caught up with yet never refuses wrongly.
 */
import type { Envelope } from '@raly/contracts/events';
import { isOnboarded, type UserRecord } from '@raly/contracts/records';
import type { AppError } from '@raly/service-kit/errors';
import type { Caller } from '@raly/service-kit/auth';
import type { KnownUser } from '../data-access/user-repository';
import { knownInterests } from '../data-access/snapshots';
import { withdrawApplicationsOfSuspendedCreator } from './applications';
import type { OffersDependencies } from './dependencies';

/** The public part of a user record and what the rules need: no names, e-mail or phone. */
export function knownUserOf(record: UserRecord): KnownUser {
  return {
    id: record.id,
    version: record.version,
    username: record.username ?? '',
    profileImg: record.profileImg,
    coverImg: record.coverImg,
    interests: knownInterests(record.interests),
    socials: { ...record.socials },
    brandId: record.brand?.id ?? null,
    isOnboarded: isOnboarded(record),
    isSuspended: record.permissions.isSuspended,
    notificationsOffers: record.notifications.offers,
  };
}

/**
 * Handles `identity.user.created|updated`: saves the public copy unless ours is as new; when the
 * newest copy says the creator is suspended, withdraws their pending applications
 * (docs/console.md).
 */
export async function applyUserSnapshot(
  dependencies: OffersDependencies,
  event: Envelope<UserRecord>,
): Promise<void> {
  const stored = await dependencies.users.save(knownUserOf(event.data));
  if (stored.isSuspended) await withdrawApplicationsOfSuspendedCreator(dependencies, stored.id);
}

/** The caller as identity-profile tells it now (saved as the copy, version-checked). */
async function fetchCaller(dependencies: OffersDependencies, caller: Caller): Promise<KnownUser> {
  const record = await dependencies.identity.ownUser(caller.accessToken);
  return dependencies.users.save(knownUserOf(record));
}

/**
 * The caller's copy, fetched from identity-profile when missing.
 * @throws AppError unavailable when identity-profile cannot be reached
 */
export async function callerUser(
  dependencies: OffersDependencies,
  caller: Caller,
): Promise<KnownUser> {
  return (await dependencies.users.findById(caller.userId)) ?? fetchCaller(dependencies, caller);
}

/**
 * The caller, checked by `refusal` on the copy and, when it refuses, once
 * more on the record identity-profile answers now.
 * @param refusal the error that refuses this user, or undefined
 * @throws the refusal's error when the current record is refused too
 */
export async function checkedCaller(
  dependencies: OffersDependencies,
  caller: Caller,
  refusal: (user: KnownUser) => AppError | undefined,
): Promise<KnownUser> {
  const copy = await callerUser(dependencies, caller);
  if (!refusal(copy)) return copy;
  const current = await fetchCaller(dependencies, caller);
  const error = refusal(current);
  if (error) throw error;
  return current;
}
