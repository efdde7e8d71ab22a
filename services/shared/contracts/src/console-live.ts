/**
 * The staff console's live namespace (docs/api.md "socket.io", docs/console.md "Reports in the
 * browser"): its name and events on the BFF's socket.io server, apart from the product's
 * (`./live`) so that the console's chunk shares no module with the product's first page.
 */
import type { ReportRecord } from './reports';

/**
 * The staff console's namespace on the same path (docs/console.md "Reports in the browser"): its
 * handshake takes a console access token with the realm role raly-moderator, the product's
 * namespace `/` a product token; neither takes the other's.
 */
export const CONSOLE_LIVE_NAMESPACE = '/console';

/** Server → client event names of the console's namespace. */
export const consoleLiveEvents = {
  report: 'report.updated',
} as const;

/** Server → client events of the console's namespace (socket.io's typed-events map). */
export interface ConsoleServerToClientEvents {
  /**
   * A report as the console reads it (`GET /api/console/reports`'s items), each time it is opened
   * or changes, to every moderator's socket; clients keep the higher `version`.
   */
  [consoleLiveEvents.report]: (record: ReportRecord) => void;
}
