/**
 * The BFF's live updates (docs/api.md "socket.io"): the socket.io path, the
 * server → client event names and their payloads. The server decides the
 * rooms; clients only listen. No zod and no other code but constants and
 * one pure function, so the web app's live socket imports it at no cost.
 */
import type { CollaborationMessageRecord, CollaborationRecord } from './collaborations';
import type { InboxRecord } from './notifications';
import type { ApplicationRecord, OfferRecord } from './offers';
import type { BrandRecord, UserRecord } from './records';
import type { ReportRecord } from './reports';
import type { TeamRecord } from './teams';

/** The socket.io path on the BFF's origin. */
export const LIVE_PATH = '/live';

/** Server → client event names, one per aggregate kind. */
export const liveEvents = {
  user: 'user.updated',
  brand: 'brand.updated',
  team: 'team.updated',
  offer: 'offer.updated',
  application: 'application.updated',
  collaboration: 'collaboration.updated',
  message: 'collaboration.message',
  inbox: 'notifications.updated',
} as const;

/**
 * Server → client events (socket.io's typed-events map). Each record carries
 * its `version`; the server pushes only a version newer than it had, and
 * clients keep the higher one.
 */
export interface LiveServerToClientEvents {
  /** The user's own record, only to that user's sockets. */
  [liveEvents.user]: (record: UserRecord) => void;
  /** A brand record, only to its members' sockets. */
  [liveEvents.brand]: (record: BrandRecord) => void;
  /** A brand's team (members by handle and role), only to its members' sockets. */
  [liveEvents.team]: (record: TeamRecord) => void;
  /**
   * An offer: a draft or any change only to its brand's members; an open or
   * closed offer also to the creators whose interests it matches and whose
   * offer notifications are on (rooms per interest).
   */
  [liveEvents.offer]: (record: OfferRecord) => void;
  /** An application: only to its applicant and to the members of the offer's brand. */
  [liveEvents.application]: (record: ApplicationRecord) => void;
  /** A collaboration: only to its creator and to the members of its brand. */
  [liveEvents.collaboration]: (record: CollaborationRecord) => void;
  /** A message of a collaboration: only to its creator and to the members of its brand. */
  [liveEvents.message]: (record: CollaborationMessageRecord) => void;
  /** A person's inbox (unread count, newest items' ids): only to that person's sockets, every tab. */
  [liveEvents.inbox]: (record: InboxRecord) => void;
}

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

/** The handshake's `auth`: the current access token. */
export interface LiveHandshakeAuth {
  token: string;
}

/**
 * The messages of a refused handshake (`connect_error`'s `message`):
 * `unauthenticated` for a missing, bad or expired token or an ended session
 * (a retry with the same token is refused again); `unavailable` when the BFF
 * could not check the token at that moment (its Redis or a service away).
 */
export const liveHandshakeRefusals = {
  unauthenticated: 'unauthenticated',
  unavailable: 'unavailable',
} as const;

/** `connect_error`'s `data` of a refused handshake: whether trying again later can succeed. */
export interface LiveHandshakeRefusalData {
  retryable: boolean;
}

/** Handshake retries after an `unavailable` refusal: the first wait and the longest (ms). */
export const LIVE_RETRY_DELAY_MS = { first: 1000, max: 30_000 } as const;

/**
 * The wait before the next handshake after `failures` retryable refusals in a
 * row (exponential, capped, with jitter so that the tabs of a whole fleet do
 * not come back in step after a shared fault).
 * @param failures refusals in a row so far, ≥ 1
 * @param random a number in [0, 1) (Math.random by default)
 * @returns ms, between half and all of min(max, first · 2^(failures − 1))
 */
export function liveRetryDelayMs(failures: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 16);
  const ceiling = Math.min(LIVE_RETRY_DELAY_MS.max, LIVE_RETRY_DELAY_MS.first * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
