/**
 * The BFF's knowledge of user and brand records: the read model plus the
 * live push. Whoever stores a newer snapshot (the Kafka projector, a PATCH
 * answer, a first read from identity) also pushes it to the owner's
 * socket.io room, so a snapshot reaches browsers exactly when it is newer
 * than what the BFF knew — never for a stale or duplicate one.
 */
import type { AggregateKind, ReadModel, RecordByKind } from '../data-access/read-model';

/** Where applied snapshots are pushed (implemented by the socket.io server). */
export interface LivePush {
  /** Sends a snapshot to the room of the aggregate it belongs to. */
  recordUpdated<K extends AggregateKind>(kind: K, record: RecordByKind[K]): void;
}

export interface RecordStore {
  /** The stored snapshot, or null. */
  get<K extends AggregateKind>(kind: K, id: string): Promise<RecordByKind[K] | null>;
  /**
   * Stores the snapshot when it is newer and then pushes it live.
   * @returns true when stored and pushed, false when ignored as stale or duplicate
   */
  save<K extends AggregateKind>(kind: K, record: RecordByKind[K]): Promise<boolean>;
}

/**
 * @param readModel the versioned Redis snapshots
 * @param live the push; read lazily because the socket server is built after the store
 */
export function createRecordStore(
  readModel: ReadModel,
  live: () => LivePush | undefined,
): RecordStore {
  return {
    get: (kind, id) => readModel.get(kind, id),
    async save(kind, record) {
      const applied = await readModel.apply(kind, record);
      if (applied) live()?.recordUpdated(kind, record);
      return applied;
    },
  };
}
