import { liveEvents } from '@raly/contracts/live';
import { handleError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';
import { findBrand, findMyUser, type MeDependencies } from '../domain/me';
import type { LiveSocket } from './live-io';
import { ALL_INTEREST_ROOMS, recordRoomsOf } from './rooms';

/**
 * Catch-up (docs/adr/0007): a change stored between the client's GET
 * /api/me and the socket's join was pushed before the socket was in its
 * rooms, so the socket gets the current snapshots once; the client keeps the
 * higher version. Read through the read model with the services behind it
 * (a Redis restart may have lost them); the person's inbox (unread count)
 * from the read model alone, as the client reads it on its own at start.
 * @returns sends one socket its user's (and brand's) snapshots and its inbox; errors are logged, not thrown
 */
export function catchUpOf(me: MeDependencies, logger: Logger) {
  return async (socket: LiveSocket): Promise<void> => {
    const { caller, brandId } = socket.data;
    try {
      const [userRecord, brandRecord, inbox] = await Promise.all([
        findMyUser(me, caller),
        brandId ? findBrand(me, brandId, caller.accessToken) : null,
        me.records.get('inbox', caller.userId),
      ]);
      if (userRecord) {
        // A newer record stored since the handshake read it may have moved the rooms
        // before this socket was in them: its brand and interest rooms follow the current record.
        const wanted = recordRoomsOf(userRecord);
        for (const room of ALL_INTEREST_ROOMS) if (!wanted.includes(room)) void socket.leave(room);
        void socket.join(wanted);
        socket.emit(liveEvents.user, userRecord);
      }
      if (brandRecord) socket.emit(liveEvents.brand, brandRecord);
      if (inbox) socket.emit(liveEvents.inbox, inbox);
    } catch (error) {
      handleError(error, logger, { socket: 'catch-up', userId: caller.userId });
    }
  };
}
