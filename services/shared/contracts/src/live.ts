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
