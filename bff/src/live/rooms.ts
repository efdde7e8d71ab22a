/**
 * Room policy: the server, never the client, decides a socket's rooms —
 * `user:<sub>`, `session:<sid>` (the token's Keycloak session), for a brand
 * user `brand:<brandId>`, and for an onboarded creator with offer
 * notifications on `interest:<Interest>` per interest (docs/architecture.md
 * "Offer routing"). There is no join handler.
 */
import { INTERESTS, type Interest } from '@raly/contracts/constants';
import { isBrandUser, isOnboarded, type UserRecord } from '@raly/contracts/records';
import type { Caller } from '@raly/service-kit/auth';
import { handleError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';
import { findMyUser, type MeDependencies } from '../domain/me';

export const userRoom = (userId: string): string => `user:${userId}`;
export const brandRoom = (brandId: string): string => `brand:${brandId}`;
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
/** The room of the creators who want live offers of one interest. */
export const interestRoom = (interest: Interest): string => `interest:${interest}`;

/** Every interest room, so a user's sockets can leave those they no longer belong in. */
export const ALL_INTEREST_ROOMS: readonly string[] = INTERESTS.map(interestRoom);

/**
 * The interest rooms a user's sockets belong in: one per interest of an
 * onboarded creator (no brand) whose offer notifications are on; none otherwise.
 */
export function interestRoomsOf(
  user: Pick<UserRecord, 'brand' | 'onboarding' | 'notifications' | 'interests'>,
): string[] {
  if (isBrandUser(user) || !isOnboarded(user) || !user.notifications.offers) return [];
  return user.interests.map(interestRoom);
}

/**
 * The rooms a user record puts its sockets in beyond their own and their
 * session's: the brand's room for a brand user, else its interest rooms.
 */
export const recordRoomsOf = (user: UserRecord): string[] =>
  user.brand?.id ? [brandRoom(user.brand.id), ...interestRoomsOf(user)] : interestRoomsOf(user);

/**
 * The rooms a user's sockets join at the handshake: their own, their
 * session's, plus their brand's (brand users) or their interests' (creators
 * who want live offers). With identity away, only the first two.
 */
export async function handshakeRoomsOf(
  me: MeDependencies,
  caller: Caller,
  logger: Logger,
): Promise<{ rooms: string[]; brandId?: string }> {
  const rooms = [userRoom(caller.userId)];
  if (caller.sessionId) rooms.push(sessionRoom(caller.sessionId));
  try {
    const record = await findMyUser(me, caller);
    const brandId = record?.brand?.id;
    if (brandId) return { rooms: [...rooms, brandRoom(brandId)], brandId };
    if (record) return { rooms: [...rooms, ...interestRoomsOf(record)] };
  } catch (error) {
    // Identity down: the socket still gets its own pushes; the brand and
    // interest rooms are joined when the next user snapshot is pushed (push).
    handleError(error, logger, { socket: 'brand room lookup', userId: caller.userId });
  }
  return { rooms };
}
