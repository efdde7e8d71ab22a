import type { SessionRevocations } from '../data-access/session-revocations';
import type { LiveIo } from './live-io';
import { sessionRoom, userRoom } from './rooms';

/**
 * Closes the sockets of an ended session (logout, password reset, e-mail
 * change) as soon as it ends, on every replica: the Redis adapter relays the
 * disconnect (docs/api.md "Ending sessions").
 */
export function closeRevokedSessions(io: LiveIo, revocations: SessionRevocations): void {
  revocations.onRevoked((revocation) => {
    if (revocation.kind === 'session') {
      io.in(sessionRoom(revocation.sessionId)).disconnectSockets(true);
    } else if (revocation.keepSessionId) {
      io.in(userRoom(revocation.userId))
        .except(sessionRoom(revocation.keepSessionId))
        .disconnectSockets(true);
    } else {
      io.in(userRoom(revocation.userId)).disconnectSockets(true);
    }
  });
}
