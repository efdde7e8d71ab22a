/**
 * The BFF's knowledge of user, brand, offer, application and collaboration
 * records: the read model and the one function that writes it, `applySnapshot`
 * (docs/adr/0007). Every snapshot the BFF learns — a command's answer (PATCH
 * /api/me, onboarding, interests, PATCH /api/brand, every offer and
 * application command), the Kafka projector, a first read from a service —
 * goes through it: it applies the version check and, only when the snapshot is
 * newer than what the BFF knew, pushes it to the owner's socket.io room. So
 * a version reaches browsers once, whichever path brought it first.
 * Messages of collaborations are not kept: `pushMessage` sends each to the
 * parties of its stored collaboration (remembered in memory once seen: a
 * collaboration's parties never change), once, from the send's answer or
 * from its event, whichever comes first.
 */
import { LRUCache } from 'lru-cache';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import type {
  AggregateKind,
  ReadModel,
  RecordByKind,
  StoredUserJson,
} from '../data-access/read-model';

/** Where newer snapshots are pushed (implemented by the socket.io server). */
export interface LivePush {
  /** Sends a snapshot to the room of the aggregate it belongs to. */
  push<K extends AggregateKind>(kind: K, record: RecordByKind[K]): void;
  /** Sends a message to the rooms of its collaboration's parties (creator and brand). */
  pushMessage(
    message: CollaborationMessageRecord,
    parties: Pick<CollaborationRecord, 'creatorId' | 'brandId'>,
  ): void;
}

export interface RecordStore {
  /** The stored snapshot, or null. */
  get<K extends AggregateKind>(kind: K, id: string): Promise<RecordByKind[K] | null>;
  /** The stored snapshot as JSON text, unparsed (answered as is), or null. */
  getJson(kind: AggregateKind, id: string): Promise<string | null>;
  /** A stored user snapshot's JSON text, unparsed, and the user's brand id, or null. */
  getUserJson(userId: string): Promise<StoredUserJson | null>;
  /**
   * The one writer of the read model: stores the snapshot when its version is
   * higher than the stored one and then pushes it live; an equal or lower
   * version (the projector's copy of a command answer already applied, a
   * redelivery, a replay) is neither stored nor pushed.
   * @param options `push: false` stores a newer snapshot without pushing it: a collaboration
   *   a message was counted on, which the tabs count from the message's own push
   *   (`countedBy` of @raly/contracts/collaborations)
   * @returns true when the snapshot was newer (stored, and pushed unless told not to), false when ignored
   */
  applySnapshot<K extends AggregateKind>(
    kind: K,
    record: RecordByKind[K],
    options?: { push?: boolean },
  ): Promise<boolean>;
  /**
   * True when this instance already applied `version` (or a higher one) of
   * the aggregate: such a snapshot cannot be newer. A hint without I/O for the
   * projector to skip an event before parsing it; false means
   * "ask {@link applySnapshot}", not "newer".
   */
  isApplied(kind: AggregateKind, id: string, version: number): boolean;
  /**
   * Forgets which versions this instance applied: called whenever the Redis
   * connection is (re)established, since a restarted Redis may have lost
   * snapshots (none, all, or the last second's, as its persistence allows)
   * and the memory would then skip the events that rebuild them.
   */
  forgetApplied(): void;
  /**
   * Pushes a message to the parties of its collaboration: those this
   * instance remembers from a snapshot it saw, else those of the snapshot
   * stored in the read model. An unknown collaboration (its snapshot not yet
   * projected, or lost with Redis, and not remembered) pushes nothing and
   * asks no service: the parties' clients read the history again when they
   * reconnect or open it. Called with the send's answer and with the
   * message's event, it pushes once across the replicas: the first caller
   * claims the push in Redis (`ReadModel.claimMessagePush`), and this instance
   * remembers the messages it pushed or saw claimed.
   * @returns true when pushed, false when the collaboration is unknown or the message was pushed
   * @throws Error when Redis cannot be reached (nothing claimed, nothing pushed)
   */
  pushMessage(message: CollaborationMessageRecord): Promise<boolean>;
}

/**
 * How many aggregates' last applied versions this instance remembers, so the
 * projector skips the Redis round trip for a snapshot this instance has
 * already applied (most often the event of its own command answer).
 */
const REMEMBERED_AGGREGATES = 10_000;

/**
 * How many collaborations' parties (creator and brand, fixed at opening)
 * this instance remembers, so a message is pushed without reading its
 * collaboration's snapshot from Redis.
 */
const REMEMBERED_PARTIES = 10_000;

/**
 * How many messages this instance remembers as pushed (by it or, as their
 * claim said, by another replica), so their event asks Redis nothing.
 */
const REMEMBERED_MESSAGES = 10_000;

/** The parties of a collaboration: whom its messages are pushed to. */
type Parties = Pick<CollaborationRecord, 'creatorId' | 'brandId'>;

/**
 * @param readModel the versioned Redis snapshots (the authority on "newer": an atomic check-and-set)
 * @param live the push; read lazily because the socket server is built after the store
 */
export function createRecordStore(
  readModel: ReadModel,
  live: () => LivePush | undefined,
): RecordStore {
  // A hint only: a remembered version v means Redis holds v or higher, so a
  // snapshot at or below v cannot be newer. Anything else asks Redis.
  const appliedVersions = new LRUCache<string, number>({ max: REMEMBERED_AGGREGATES });
  const isApplied = (kind: AggregateKind, id: string, version: number) =>
    version <= (appliedVersions.get(`${kind}:${id}`) ?? -1);
  // Not forgotten with the versions: a collaboration's parties never change.
  const partiesOf = new LRUCache<string, Parties>({ max: REMEMBERED_PARTIES });
  const rememberParties = (collaboration: CollaborationRecord) => {
    if (!partiesOf.has(collaboration.id))
      partiesOf.set(collaboration.id, {
        creatorId: collaboration.creatorId,
        brandId: collaboration.brandId,
      });
  };
  const pushedMessages = new LRUCache<string, true>({ max: REMEMBERED_MESSAGES });
  return {
    get: (kind, id) => readModel.get(kind, id),
    getJson: (kind, id) => readModel.getJson(kind, id),
    getUserJson: (userId) => readModel.getUserJson(userId),
    isApplied,
    forgetApplied: () => appliedVersions.clear(),
    async applySnapshot(kind, record, options) {
      const aggregate = `${kind}:${record.id}`;
      if (kind === 'collaboration') rememberParties(record as CollaborationRecord);
      if (isApplied(kind, record.id, record.version)) return false;
      const newer = await readModel.apply(kind, record);
      if (!newer) return false;
      // Racing writes may finish out of order: remember the highest.
      const remembered = appliedVersions.get(aggregate) ?? -1;
      appliedVersions.set(aggregate, Math.max(remembered, record.version));
      if (options?.push !== false) live()?.push(kind, record);
      return true;
    },
    async pushMessage(message) {
      if (pushedMessages.has(message.id)) return false;
      let parties = partiesOf.get(message.collaborationId);
      if (!parties) {
        const collaboration = await readModel.get('collaboration', message.collaborationId);
        if (!collaboration) return false;
        rememberParties(collaboration);
        parties = collaboration;
      }
      const claimed = await readModel.claimMessagePush(message.id);
      pushedMessages.set(message.id, true);
      if (!claimed) return false;
      live()?.pushMessage(message, parties);
      return true;
    },
  };
}

/**
 * A command's answer: applies the service's fresh snapshot (stored and pushed
 * live at once when newer, so the Kafka copy is ignored later, docs/adr/0007)
 * and returns the newest version known — an event of a later change may
 * already have landed (read back only when the answer was not stored).
 * @param records the store
 * @param kind the aggregate kind of `snapshot`
 * @param snapshot the record the service answered
 * @returns `snapshot`, or the stored record when its version is higher
 */
export async function answerWithNewest<K extends AggregateKind>(
  records: RecordStore,
  kind: K,
  snapshot: RecordByKind[K],
): Promise<RecordByKind[K]> {
  // Stored: it was the newest when stored, no need to read it back.
  if (await records.applySnapshot(kind, snapshot)) return snapshot;
  const newest = await records.get(kind, snapshot.id);
  return newest && newest.version > snapshot.version ? newest : snapshot;
}
