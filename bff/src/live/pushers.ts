/**
 * One emit per snapshot, to the rooms of whoever may see it: socket.io (and
 * the Redis adapter, once per replica) sends it once to each socket in any
 * of the rooms. Nothing here depends on how many users there are.
 */
import { LRUCache } from 'lru-cache';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import { liveEvents } from '@raly/contracts/live';
import { applicantViewOf } from '@raly/contracts/offers';
import type { AggregateKind, RecordByKind } from '../data-access/read-model';
import type { LiveIo } from './live-io';
import { ALL_INTEREST_ROOMS, brandRoom, interestRoom, recordRoomsOf, userRoom } from './rooms';

/** How many users' last room moves a replica remembers: a push that moves nothing publishes no move. */
const REMEMBERED_ROOM_MOVES = 10_000;

export type Pushers = { [K in AggregateKind]: (record: RecordByKind[K]) => void };

export interface MessagePusher {
  /** A collaboration's message, to the rooms of `parties`. */
  message(
    message: CollaborationMessageRecord,
    parties: Pick<CollaborationRecord, 'creatorId' | 'brandId'>,
  ): void;
}

/** The rooms of a collaboration's two parties: its creator and its brand's members. */
const partyRooms = ({ creatorId, brandId }: Pick<CollaborationRecord, 'creatorId' | 'brandId'>) => [
  userRoom(creatorId),
  brandRoom(brandId),
];

/** The push of each aggregate kind, and of a message, to `io`'s rooms. */
export function createPushers(io: LiveIo): Pushers & MessagePusher {
  /**
   * Moves a user's sockets between rooms on every replica. The Redis adapter
   * only publishes a join or leave (every replica, this one included, applies
   * it when it comes back from Redis), so it is also applied here at once:
   * the push emitted next then finds this replica's sockets moved, and other
   * replicas get the request ahead of that push (one Redis connection, in order).
   * @param join rooms to join; @param leave rooms to leave (disjoint from `join`)
   */
  const moveRooms = (userId: string, { join, leave }: { join: string[]; leave: string[] }) => {
    for (const sockets of [io.local.in(userRoom(userId)), io.in(userRoom(userId))]) {
      if (leave.length > 0) sockets.socketsLeave(leave);
      if (join.length > 0) sockets.socketsJoin(join);
    }
  };

  /**
   * Per user, the version of the last user snapshot this replica pushed and
   * the rooms it moved the user's sockets to ({@link recordRoomsOf}, joined by spaces). The next
   * version (exactly one higher) with the same rooms needs no move: every
   * replica applied that move, no other version came between (a version is
   * pushed by the one replica whose version-checked write stored it, and a
   * later one cannot be stored first), and sockets that connected since took
   * their rooms from a record at least as new (handshake, catch-up). A gap in
   * versions, other rooms, or a forgotten user: the move is published as before.
   */
  const movedRooms = new LRUCache<string, { version: number; rooms: string }>({
    max: REMEMBERED_ROOM_MOVES,
  });

  return {
    user(user) {
      // A user who just became a brand user starts receiving their brand's pushes; interest
      // rooms follow the record (interests, notifications.offers, onboarding): the ones no
      // longer wanted are left, the current ones joined.
      const wanted = recordRoomsOf(user);
      const rooms = wanted.join(' ');
      const moved = movedRooms.get(user.id);
      if (!moved || moved.version !== user.version - 1 || moved.rooms !== rooms)
        moveRooms(user.id, {
          join: wanted,
          leave: ALL_INTEREST_ROOMS.filter((room) => !wanted.includes(room)),
        });
      movedRooms.set(user.id, { version: user.version, rooms });
      io.to(userRoom(user.id)).emit(liveEvents.user, user);
    },
    brand(brand) {
      io.to(brandRoom(brand.id)).emit(liveEvents.brand, brand);
    },
    team(team) {
      // A member who left or was removed: their sockets leave the brand's room at once, on every
      // replica, before the team goes to the members still in it.
      const change = team.lastChange;
      if (change?.userId && (change.kind === 'left' || change.kind === 'removed'))
        moveRooms(change.userId, { join: [], leave: [brandRoom(team.id)] });
      io.to(brandRoom(team.id)).emit(liveEvents.team, team);
    },
    offer(offer) {
      // A draft is its brand's business only; an open or closed offer also reaches the
      // creators of its interests (closed: so their feeds drop it live).
      const rooms = [brandRoom(offer.brandId)];
      if (offer.status !== 'draft') rooms.push(...offer.interests.map(interestRoom));
      io.to(rooms).emit(liveEvents.offer, offer);
    },
    application(application) {
      // Which member decided (`decidedBy`) is for the brand's members; the applicant gets the
      // brand's side only (docs/product-spec.md §13.2), then in an emit of its own.
      const applicantView = applicantViewOf(application);
      if (applicantView === application) {
        io.to([userRoom(application.creatorId), brandRoom(application.brandId)]).emit(
          liveEvents.application,
          application,
        );
        return;
      }
      io.to(brandRoom(application.brandId)).emit(liveEvents.application, application);
      io.to(userRoom(application.creatorId)).emit(liveEvents.application, applicantView);
    },
    collaboration(collaboration) {
      io.to(partyRooms(collaboration)).emit(liveEvents.collaboration, collaboration);
    },
    inbox(inbox) {
      // A person's own inbox: every tab of theirs, a brand member's included (their own room).
      io.to(userRoom(inbox.id)).emit(liveEvents.inbox, inbox);
    },
    message(message, parties) {
      io.to(partyRooms(parties)).emit(liveEvents.message, message);
    },
  };
}
