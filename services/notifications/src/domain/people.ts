/**
 * Who people are to notifications, from `identity.user.v1`: a brand's
 * member (told of its applications and collaborations), or a creator with
 * interests who wants offers (an onboarded creator with `notifications.offers`
 * on, as the BFF's interest rooms decide). Only what that takes is kept.
 */
import type { Envelope } from '@raly/contracts/events';
import { isBrandUser, isOnboarded, type UserRecord } from '@raly/contracts/records';
import type { NotificationsDependencies } from './dependencies';

/** Handles `identity.user.created|updated`: keeps the newest copy of the person. */
export async function savePersonOfUser(
  dependencies: NotificationsDependencies,
  event: Envelope<UserRecord>,
): Promise<void> {
  const user = event.data;
  await dependencies.copies.savePerson({
    id: user.id,
    version: user.version,
    brandId: user.brand?.id ?? null,
    interests: user.interests,
    wantsOffers: !isBrandUser(user) && isOnboarded(user) && user.notifications.offers,
  });
}
