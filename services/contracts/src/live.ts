/**
 * The BFF's live updates (docs/api.md "socket.io"): the socket.io path, the
 * server → client event names and their payloads. The server decides the
 * rooms; clients only listen. No zod and no other code but constants, so the
 * web app's live socket imports it at no cost.
 */
import type { ApplicationRecord, OfferRecord } from './offers';
import type { BrandRecord, UserRecord } from './records';

/** The socket.io path on the BFF's origin. */
export const LIVE_PATH = '/live';

/** Server → client event names, one per aggregate kind. */
export const liveEvents = {
  user: 'user.updated',
  brand: 'brand.updated',
  offer: 'offer.updated',
  application: 'application.updated',
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
  /**
   * An offer: a draft or any change only to its brand's members; an open or
   * closed offer also to the creators whose interests it matches and whose
   * offer notifications are on (rooms per interest).
   */
  [liveEvents.offer]: (record: OfferRecord) => void;
  /** An application: only to its applicant and to the members of the offer's brand. */
  [liveEvents.application]: (record: ApplicationRecord) => void;
}

/** The handshake's `auth`: the current access token. */
export interface LiveHandshakeAuth {
  token: string;
}
