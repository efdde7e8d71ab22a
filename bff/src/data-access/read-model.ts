/**
 * The Redis read model: the latest snapshot of each user, brand, offer,
 * application and collaboration record and of each person's inbox the BFF
 * has seen, one hash per aggregate (`rm:user:<id>`, `rm:brand:<id>`, `rm:team:<brand id>`,
 * `rm:offer:<id>`, `rm:application:<id>`, `rm:collaboration:<id>`,
 * `rm:inbox:<user id>`) with fields `version` and
 * `snapshot` (JSON), and for a user `brandId` (empty for a user without a
 * brand, so GET /api/me reads it without parsing the snapshot). A write
 * applies only when its version is higher than the stored one, atomically
 * in one Lua script, so redelivered, replayed or out-of-order events and
 * racing HTTP writes never move a record backwards (docs/architecture.md "Events").
 */
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import type { InboxRecord } from '@raly/contracts/notifications';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import type { TeamRecord } from '@raly/contracts/teams';
import type { Redis } from 'ioredis';
import type { ClientSideCache } from './client-side-cache';

/**
 * The aggregates the BFF keeps: identity's users, brand's brands, offers'
 * offers and applications, collaborations' collaborations (messages are
 * pushed, not kept), notifications' inboxes (a person's unread count).
 */
export type AggregateKind =
  'user' | 'brand' | 'team' | 'offer' | 'application' | 'collaboration' | 'inbox';
export interface RecordByKind {
  user: UserRecord;
  brand: BrandRecord;
  /** A brand's team (id: the brand's id). */
  team: TeamRecord;
  offer: OfferRecord;
  application: ApplicationRecord;
  collaboration: CollaborationRecord;
  inbox: InboxRecord;
}

/** The Redis key of one aggregate's snapshot (`prefix`: READ_MODEL_KEY_PREFIX, default `rm`). */
export const readModelKey = (kind: AggregateKind, id: string, prefix = 'rm'): string =>
  `${prefix}:${kind}:${id}`;

// KEYS[1] = aggregate key, ARGV[1] = version, ARGV[2] = snapshot JSON, ARGV[3] = a user's brand id.
// Returns 1 when stored, 0 when the stored version is equal or higher.
const applyIfNewerScript = `
local current = redis.call('HGET', KEYS[1], 'version')
if current and tonumber(current) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'snapshot', ARGV[2])
if ARGV[3] then
  redis.call('HSET', KEYS[1], 'brandId', ARGV[3])
end
return 1
`;

type ReadModelRedis = Redis & {
  applyIfNewer(key: string, version: string, snapshot: string, brandId?: string): Promise<number>;
};

/** A stored user snapshot as its JSON text, unparsed, and the user's brand (null: none). */
export interface StoredUserJson {
  json: string;
  brandId: string | null;
}

export interface ReadModel {
  /**
   * Stores a snapshot unless a record of equal or higher version is stored.
   * @param record the whole record; its `version` decides
   * @returns true when stored, false when ignored as stale or duplicate
   */
  apply<K extends AggregateKind>(kind: K, record: RecordByKind[K]): Promise<boolean>;
  /** The stored snapshot, or null when the BFF has not seen this aggregate. */
  get<K extends AggregateKind>(kind: K, id: string): Promise<RecordByKind[K] | null>;
  /** The stored snapshot as its JSON text (as {@link apply} wrote it), or null. */
  getJson(kind: AggregateKind, id: string): Promise<string | null>;
  /** A stored user snapshot's JSON text and brand, read in one command; null when none is stored. */
  getUserJson(userId: string): Promise<StoredUserJson | null>;
  /**
   * Claims the live push of a collaboration's message for the caller, once
   * across every replica: a key set only if absent, kept
   * {@link MESSAGE_PUSH_CLAIM_TTL_MS}.
   * @returns true for the first claim of `messageId`, false for every later one
   */
  claimMessagePush(messageId: string): Promise<boolean>;
}

/**
 * How long a message's push stays claimed, ms: far longer than its event takes to reach the
 * projector. A later event (a projector that lagged longer, a Redis that lost the key) pushes
 * it again, and the browser keeps one copy per message id.
 */
export const MESSAGE_PUSH_CLAIM_TTL_MS = 10 * 60 * 1000;

/** The kinds whose snapshots go through the client-side cache: GET /api/me's user and brand. */
const CACHED_KINDS: ReadonlySet<AggregateKind> = new Set(['user', 'brand']);

/**
 * @param redis a connected ioredis client (the script is registered on it)
 * @param keyPrefix READ_MODEL_KEY_PREFIX (default `rm`)
 * @param cache the client-side cache users' and brands' snapshots are read through
 *   (./client-side-cache); without it every read goes to Redis
 */
export function createReadModel(
  redis: Redis,
  keyPrefix = 'rm',
  cache?: ClientSideCache,
): ReadModel {
  if (!('applyIfNewer' in redis)) {
    redis.defineCommand('applyIfNewer', { numberOfKeys: 1, lua: applyIfNewerScript });
  }
  const client = redis as ReadModelRedis;
  const hmget = (kind: AggregateKind, key: string, fields: string[]) =>
    cache && CACHED_KINDS.has(kind) ? cache.hmget(key, fields) : client.hmget(key, ...fields);
  return {
    async apply(kind, record) {
      const brandId = kind === 'user' ? [(record as UserRecord).brand?.id ?? ''] : [];
      const key = readModelKey(kind, record.id, keyPrefix);
      // This replica's next read sees the write, whenever Redis' invalidation arrives.
      cache?.forget(key);
      const applied = await client.applyIfNewer(
        key,
        String(record.version),
        JSON.stringify(record),
        ...brandId,
      );
      return applied === 1;
    },
    async get(kind, id) {
      const snapshot = await client.hget(readModelKey(kind, id, keyPrefix), 'snapshot');
      return snapshot ? JSON.parse(snapshot) : null;
    },
    getJson: async (kind, id) =>
      (await hmget(kind, readModelKey(kind, id, keyPrefix), ['snapshot']))[0] ?? null,
    async claimMessagePush(messageId) {
      const claimed = await client.set(
        `${keyPrefix}:message-pushed:${messageId}`,
        '1',
        'PX',
        MESSAGE_PUSH_CLAIM_TTL_MS,
        'NX',
      );
      return claimed === 'OK';
    },
    async getUserJson(userId) {
      const key = readModelKey('user', userId, keyPrefix);
      const [json, brandId] = await hmget('user', key, ['snapshot', 'brandId']);
      if (json === null || json === undefined) return null;
      // Stored before the brandId field was: its brand is read from the snapshot until its next version.
      if (brandId === null || brandId === undefined)
        return { json, brandId: (JSON.parse(json) as UserRecord).brand?.id ?? null };
      return { json, brandId: brandId || null };
    },
  };
}
