/**
 * Redis server-assisted client-side caching of the BFF's hottest reads (the
 * ended-session marks every authenticated request checks, and the stored
 * user and brand GET /api/me answers with), as Redis describes it
 * (https://redis.io/docs/latest/develop/reference/client-side-caching/,
 * "default mode" with redirection). docs/adr/0012 gives the reasons and the
 * guarantees.
 *
 * Two connections of its own: a reader with `CLIENT TRACKING on REDIRECT
 * <id>`, through which every cached read goes (so Redis remembers exactly the
 * keys this process may hold), and a RESP2 subscriber of
 * `__redis__:invalidate` whose id the reader redirects to. Redis sends a key's
 * name there as soon as anyone changes it (a write, an expiry, an eviction)
 * and `null` on a flush; the key's entry is then dropped. A read whose
 * answer may predate an invalidation heard while it travelled is not kept
 * (a per-key pending mark, Redis' "caching-in-progress" placeholder).
 * Nothing is served from memory unless both connections are up and tracking
 * was set up on them: when either drops, every entry is dropped and reads go
 * to Redis until both are back and tracking is set up again.
 */
import { setImmediate as afterIo } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '@raly/service-kit/logger';

/** The channel Redis publishes invalidations on for a redirecting client. */
const INVALIDATION_CHANNEL = '__redis__:invalidate';

/** What one key holds in memory: a string (or its absence), or some fields of a hash. */
type Entry =
  { kind: 'string'; value: string | null } | { kind: 'hash'; fields: Map<string, string | null> };

/** Bytes an entry is counted for besides its strings (the entry, the map, the key's slot), bytes. */
const ENTRY_OVERHEAD_BYTES = 96;

export interface ClientSideCache {
  /**
   * `MGET keys` through the cache.
   * @returns each key's value, null where the key does not exist
   * @throws the Redis client's error when a missing key cannot be read
   */
  mget(keys: string[]): Promise<(string | null)[]>;
  /**
   * `HMGET key fields` through the cache.
   * @returns each field's value, null where the field (or the hash) does not exist
   * @throws the Redis client's error when Redis cannot be read
   */
  hmget(key: string, fields: string[]): Promise<(string | null)[]>;
  /**
   * Drops `key` before this process writes it, so its next read here sees the write
   * (Redis' invalidation of the write arrives on the other connection, maybe later).
   */
  forget(key: string): void;
  /** True while answers are served from memory (both connections up, tracking set up). */
  readonly active: boolean;
  /** Entries held, and bytes counted for them. */
  readonly size: { entries: number; bytes: number };
  /** Closes both connections. */
  close(): Promise<void>;
}

/** The default names of the cache's Redis connections (`CLIENT LIST`). */
export const CLIENT_SIDE_CACHE_CONNECTIONS = {
  reader: 'bff-client-side-cache',
  invalidations: 'bff-client-side-cache-invalidations',
} as const;

/** Default of {@link ClientSideCacheOptions.maxAgeMs}, ms. */
const DEFAULT_MAX_AGE_MS = 60_000;

export interface ClientSideCacheOptions {
  /** Most bytes of keys and values held (least recently used dropped first), bytes. */
  maxBytes: number;
  /** Longest an entry is served before it is read again, invalidated or not, ms; default 60 000. */
  maxAgeMs?: number;
  /** The names of its two connections; default {@link CLIENT_SIDE_CACHE_CONNECTIONS}. */
  names?: { reader: string; invalidations: string };
  logger: Logger;
}

/**
 * Starts the cache's two connections (duplicates of `redis`: same server,
 * database and credentials) and sets tracking up in the background.
 * @param redis the BFF's client: duplicated, and read directly while tracking is not in place
 * @returns the cache at once; it reads Redis until tracking is in place
 */
export function createClientSideCache(
  redis: Redis,
  options: ClientSideCacheOptions,
): ClientSideCache {
  const { logger, names = CLIENT_SIDE_CACHE_CONNECTIONS } = options;
  const reader = redis.duplicate({
    connectionName: names.reader,
    enableAutoPipelining: true,
    lazyConnect: true,
  });
  // RESP2: invalidations then arrive as messages of the channel (ioredis drops RESP3's pushes).
  const invalidations = redis.duplicate({
    connectionName: names.invalidations,
    protocol: 2,
    enableAutoPipelining: false,
    autoResubscribe: false,
    lazyConnect: true,
  });
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    // A bound on any staleness the invalidations could miss (a connection cut without a close).
    ttl: options.maxAgeMs ?? DEFAULT_MAX_AGE_MS,
    sizeCalculation: (entry, key) => ENTRY_OVERHEAD_BYTES + 2 * (key.length + textLength(entry)),
  });
  /** Keys with a read in flight since the last invalidation of the key, and that read's number. */
  const pending = new Map<string, number>();
  let reads = 0;
  /** Bumped whenever a connection drops: a read of an earlier epoch is never kept. */
  let epoch = 0;
  let active = false;
  let invalidationsId: number | undefined;
  let closed = false;

  const drop = (key: string) => {
    entries.delete(key);
    pending.delete(key);
  };
  const dropAll = () => {
    entries.clear();
    pending.clear();
  };
  const deactivate = (reason: string) => {
    if (active) logger.warn({ reason }, 'client-side cache off until tracking is set up again');
    active = false;
    epoch++;
    dropAll();
  };

  invalidations.on('messageBuffer', (channel: Buffer, payload: unknown) => {
    if (channel.toString() !== INVALIDATION_CHANNEL) return;
    if (!Array.isArray(payload)) {
      // A flush of the database (FLUSHDB, FLUSHALL): every key may have changed.
      dropAll();
      return;
    }
    for (const key of payload) drop(String(key));
  });

  /** Bumped whenever the subscriber's connection drops (its next one has another id). */
  let invalidationsConnection = 0;
  const trySetUp = async () => {
    if (closed || active || reader.status !== 'ready' || invalidations.status !== 'ready') return;
    const setUpEpoch = epoch;
    const connection = invalidationsConnection;
    try {
      if (invalidationsId === undefined) {
        const id = Number(await invalidations.client('ID'));
        await invalidations.subscribe(INVALIDATION_CHANNEL);
        if (connection !== invalidationsConnection) return;
        invalidationsId = id;
      }
      await reader.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', String(invalidationsId));
      // A connection that dropped meanwhile sets up again when it is back ('ready').
      if (epoch !== setUpEpoch || closed) return;
      active = true;
      logger.info('client-side cache on');
    } catch (error) {
      if (epoch === setUpEpoch) logger.warn({ err: error }, 'client-side cache not set up');
    }
  };
  // One set-up at a time: two at once could ask a subscribed connection its id.
  let settingUp = Promise.resolve();
  const setUp = () => {
    settingUp = settingUp.then(trySetUp);
  };
  reader.on('close', () => deactivate('the reader closed'));
  invalidations.on('close', () => {
    // The next connection has another id, and is not subscribed.
    invalidationsConnection++;
    invalidationsId = undefined;
    deactivate('the invalidations subscriber closed');
  });
  for (const connection of [reader, invalidations]) {
    connection.on('ready', setUp);
    // Logged by the BFF's own client; here only kept from being an unhandled 'error' event.
    connection.on('error', () => undefined);
  }
  void Promise.all([reader.connect(), invalidations.connect()]).catch((error: unknown) => {
    logger.warn({ err: error }, 'client-side cache: Redis not reached; reads go to Redis');
  });

  /**
   * Reads `key` with `read` on the tracked reader and keeps `store(answer)`
   * unless the key was invalidated (or a connection dropped) while the read
   * travelled; while tracking is not set up, reads on the BFF's own client.
   */
  const readThrough = async <T>(
    key: string,
    read: (client: Redis) => Promise<T>,
    store: (answer: T) => void,
  ) => {
    // Untracked: through the BFF's own client, as without a cache.
    if (!active) return read(redis);
    const readEpoch = epoch;
    const number = ++reads;
    if (!pending.has(key)) pending.set(key, number);
    try {
      const answer = await read(reader);
      if (active && epoch === readEpoch && pending.get(key) === number) store(answer);
      return answer;
    } finally {
      if (pending.get(key) === number) pending.delete(key);
    }
  };

  /**
   * An answer from memory leaves after the I/O callbacks of the current turn of
   * the event loop: an invalidation that reached this process together with the
   * request is applied first (the answer is then read again).
   */
  const fromMemory = async <T>(lookUp: () => T | undefined, read: () => Promise<T>) => {
    if (lookUp() === undefined) return read();
    await afterIo();
    return lookUp() ?? read();
  };

  return {
    async mget(keys) {
      const cached = () => {
        const values: (string | null)[] = [];
        for (const key of keys) {
          const entry = active ? entries.get(key) : undefined;
          if (entry?.kind !== 'string') return undefined;
          values.push(entry.value);
        }
        return values;
      };
      return fromMemory(cached, () =>
        Promise.all(
          keys.map((key) =>
            readThrough(
              key,
              (client) => client.get(key),
              (value) => entries.set(key, { kind: 'string', value }),
            ),
          ),
        ),
      );
    },
    async hmget(key, fields) {
      const cached = () => {
        const entry = active ? entries.get(key) : undefined;
        if (entry?.kind !== 'hash' || !fields.every((field) => entry.fields.has(field)))
          return undefined;
        return fields.map((field) => entry.fields.get(field) ?? null);
      };
      return fromMemory(cached, () =>
        readThrough(
          key,
          (client) => client.hmget(key, ...fields),
          (values) => {
            const held = entries.get(key);
            const known = held?.kind === 'hash' ? new Map(held.fields) : new Map();
            fields.forEach((field, index) => known.set(field, values[index] ?? null));
            entries.set(key, { kind: 'hash', fields: known });
          },
        ),
      );
    },
    forget: drop,
    get active() {
      return active;
    },
    get size() {
      return { entries: entries.size, bytes: entries.calculatedSize };
    },
    async close() {
      closed = true;
      deactivate('closed');
      await Promise.allSettled([reader.quit(), invalidations.quit()]);
    },
  };
}

/** Characters of an entry's strings. */
function textLength(entry: Entry): number {
  if (entry.kind === 'string') return entry.value?.length ?? 0;
  let length = 0;
  for (const [field, value] of entry.fields) length += field.length + (value?.length ?? 0);
  return length;
}
