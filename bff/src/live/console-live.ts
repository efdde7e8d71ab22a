/**
 * The staff console's live namespace, `/console` on the same socket.io server (docs/api.md
 * "socket.io", docs/console.md "Reports in the browser"): its handshake takes a console access
 * token with the realm role raly-moderator, checked like the console's routes
 * (`Authenticator.verifyStaff`), and refused with the product's refusal shape (./handshake).
 * Every admitted socket joins {@link CONSOLE_REPORTS_ROOM}, to which each report snapshot of
 * `moderation.report.v1` is emitted as the console reads it (the record, as `GET
 * /api/console/reports` answers its items). A socket ends when its token expires (./expiry-sweep).
 */
import type { Namespace, Socket } from 'socket.io';
import { LRUCache } from 'lru-cache';
import {
  CONSOLE_LIVE_NAMESPACE,
  consoleLiveEvents,
  type ConsoleServerToClientEvents,
} from '@raly/contracts/console-live';
import type { ReportRecord } from '@raly/contracts/reports';
import { handleError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';
import type { Authenticator, StaffSession } from '../auth/keycloak';
import { handshakeRefusal, takeHandshakeToken } from './handshake';
import type { LiveIo } from './live-io';

/** The room of every moderator's console socket: the report queue's pushes. */
export const CONSOLE_REPORTS_ROOM = 'console:reports';

/** How many reports' last pushed versions a replica remembers (a redelivery is not pushed again). */
const REMEMBERED_REPORT_VERSIONS = 10_000;

/** What the BFF keeps on a console socket: the staff member and when their token expires. */
export interface ConsoleSocketData {
  staff: StaffSession;
}

type NoEvents = Record<string, never>;
export type ConsoleNamespace = Namespace<
  NoEvents,
  ConsoleServerToClientEvents,
  NoEvents,
  ConsoleSocketData
>;
export type ConsoleSocket = Socket<
  NoEvents,
  ConsoleServerToClientEvents,
  NoEvents,
  ConsoleSocketData
>;

/** The console's live pushes. */
export interface ConsoleLive {
  /** The namespace (its sockets are swept when their tokens expire). */
  namespace: ConsoleNamespace;
  /**
   * Emits a report snapshot to every moderator's socket, unless this replica already pushed
   * that version or a higher one.
   * @returns true when emitted
   */
  pushReport(report: ReportRecord): boolean;
}

/**
 * Opens the console's namespace on `io` with its handshake and its room.
 * @param authenticator `verifyStaff`, the console routes' checks on the handshake's `auth.token`
 */
export function openConsoleLive(
  io: LiveIo,
  { authenticator, logger }: { authenticator: Authenticator; logger: Logger },
): ConsoleLive {
  // The server's event maps are the product's; this namespace has its own.
  const namespace = io.of(CONSOLE_LIVE_NAMESPACE) as unknown as ConsoleNamespace;
  namespace.use((socket, next) => {
    const token = takeHandshakeToken(socket.handshake);
    authenticator
      .verifyStaff(token, 'raly-moderator')
      .then((staff) => {
        socket.data.staff = staff;
        next();
      })
      .catch((error: unknown) => {
        handleError(error, logger, { socket: 'console handshake' });
        next(handshakeRefusal(error));
      });
  });
  namespace.on('connection', (socket) => void socket.join(CONSOLE_REPORTS_ROOM));

  const pushedVersions = new LRUCache<string, number>({ max: REMEMBERED_REPORT_VERSIONS });
  return {
    namespace,
    pushReport(report) {
      if ((pushedVersions.get(report.id) ?? 0) >= report.version) return false;
      pushedVersions.set(report.id, report.version);
      namespace.to(CONSOLE_REPORTS_ROOM).emit(consoleLiveEvents.report, report);
      return true;
    },
  };
}
