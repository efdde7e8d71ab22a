/**
 * The client-side cache of the BFF's hottest reads (bff/src/data-access/client-side-cache.ts,
 * docs/adr/0012) against the real Redis: what it serves from memory, what another client's
 * write, this process's own write, a raced read and a dropped connection do to it.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { Redis } from 'ioredis';
import { createLogger } from '@raly/service-kit/logger';
import { eventually, testStack, uniqueToken } from '@raly/test-support';
import { createClientSideCache, type ClientSideCache } from '../src/data-access/client-side-cache';

describe('the client-side cache', () => {
  let redis: Redis;
  let writer: Redis;
  let cache: ClientSideCache;
  const prefix = `csc-test-${uniqueToken()}`;
  const key = (name: string) => `${prefix}:${name}`;
  const names = { reader: `${prefix}-reader`, invalidations: `${prefix}-invalidations` };
  /** The ids of the shared Redis' connections named `name` (only this cache's). */
  const connectionIds = async (name: string) =>
    String(await writer.client('LIST'))
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /\bid=(\d+)/.exec(line)![1]!);
  /** Kills this cache's connection named `name` (never another client of the shared Redis). */
  const kill = async (name: string) => {
    const ids = await connectionIds(name);
    assert.ok(ids.length > 0, `a connection named ${name}`);
    for (const id of ids) await writer.call('CLIENT', 'KILL', 'ID', id);
    return ids;
  };

  beforeAll(async () => {
    const stack = await testStack();
    redis = new Redis(stack.redisUrl);
    writer = new Redis(stack.redisUrl);
    cache = createClientSideCache(redis, {
      maxBytes: 1024 * 1024,
      names,
      logger: createLogger('bff-test', 'silent'),
    });
    await eventually('the cache tracking its reads', () => cache.active);
  });

  afterAll(async () => {
    await cache?.close();
    const keys = await writer?.keys(`${prefix}:*`);
    if (keys?.length) await writer.del(...keys);
    redis?.disconnect();
    writer?.disconnect();
  });

  /** Seconds since Redis last served `name` to anyone (OBJECT IDLETIME does not count as a read). */
  const idleSeconds = async (name: string) => Number(await writer.object('IDLETIME', key(name)));

  test('when a hash is read twice, then the second answer comes from memory, not Redis', async () => {
    // Arrange
    await writer.hset(key('user-a'), 'snapshot', '{"v":1}', 'brandId', '');
    assert.deepEqual(await cache.hmget(key('user-a'), ['snapshot', 'brandId']), ['{"v":1}', '']);
    await sleep(2_100);

    // Act
    const again = await cache.hmget(key('user-a'), ['snapshot', 'brandId']);

    // Assert
    assert.deepEqual(again, ['{"v":1}', '']);
    assert.ok((await idleSeconds('user-a')) >= 2, 'Redis was not read again');
  });

  test('when another client writes a cached hash, then the next reads see the new value', async () => {
    // Arrange
    await writer.hset(key('user-b'), 'snapshot', 'old');
    assert.deepEqual(await cache.hmget(key('user-b'), ['snapshot']), ['old']);

    // Act
    await writer.hset(key('user-b'), 'snapshot', 'new');

    // Assert
    assert.deepEqual(
      await eventually('the new value read', async () => {
        const [value] = await cache.hmget(key('user-b'), ['snapshot']);
        return value === 'new' ? [value] : undefined;
      }),
      ['new'],
    );
  });

  test('when a missing key read as null is set by another client, then the next reads see it', async () => {
    // Arrange: an ended-session check of two marks that do not exist
    const marks = [key('session-1'), key('user-1')];
    assert.deepEqual(await cache.mget(marks), [null, null]);
    assert.deepEqual(await cache.mget(marks), [null, null]);

    // Act
    await writer.set(key('session-1'), '1', 'EX', 60);

    // Assert
    assert.deepEqual(
      await eventually('the session mark read', async () => {
        const values = await cache.mget(marks);
        return values[0] === '1' ? values : undefined;
      }),
      ['1', null],
    );
  });

  test('when this process forgets a key before writing it, then its very next read sees the write', async () => {
    // Arrange
    await writer.set(key('session-2'), 'before', 'EX', 60);
    assert.deepEqual(await cache.mget([key('session-2')]), ['before']);

    // Act: the write's invalidation may arrive after the next read
    cache.forget(key('session-2'));
    await redis.set(key('session-2'), 'after', 'EX', 60);

    // Assert
    assert.deepEqual(await cache.mget([key('session-2')]), ['after']);
  });

  test('when a key is forgotten while its read travels, then the read’s answer is not kept', async () => {
    // Arrange
    const raced = key(`user-c-${uniqueToken()}`);
    await writer.hset(raced, 'snapshot', 'value');
    const entriesBefore = cache.size.entries;

    // Act
    const reading = cache.hmget(raced, ['snapshot']);
    cache.forget(raced);

    // Assert
    assert.deepEqual(await reading, ['value']);
    assert.equal(cache.size.entries, entriesBefore, 'the raced answer was not kept');
  });

  /** Waits until the cache serves from memory again over a new connection named `name`. */
  const backAfterKill = (name: string, killedIds: string[]) =>
    eventually(`the cache on again over a new ${name}`, async () => {
      const ids = await connectionIds(name);
      return cache.active && ids.length > 0 && ids.every((id) => !killedIds.includes(id));
    });

  for (const side of ['invalidations', 'reader'] as const)
    test(`when its ${side} connection is killed and the key written, then the cache comes back without the old value`, async () => {
      // Arrange
      const name = key(`user-${side}`);
      await writer.hset(name, 'snapshot', 'first');
      assert.deepEqual(await cache.hmget(name, ['snapshot']), ['first']);
      assert.deepEqual(await cache.hmget(name, ['snapshot']), ['first']);

      // Act: the write's invalidation has nowhere to go (the subscriber is gone, or the
      // tracked client that read the key is)
      const killed = await kill(names[side]);
      await writer.hset(name, 'snapshot', 'second');
      await backAfterKill(names[side], killed);

      // Assert
      assert.deepEqual(await cache.hmget(name, ['snapshot']), ['second']);
      await writer.hset(name, 'snapshot', 'third');
      assert.deepEqual(
        await eventually('a write after the reconnection seen', async () => {
          const [value] = await cache.hmget(name, ['snapshot']);
          return value === 'third' ? [value] : undefined;
        }),
        ['third'],
      );
    });
});
