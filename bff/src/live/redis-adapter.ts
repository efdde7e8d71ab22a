/**
 * The Redis adapter through which replicas share rooms: a push or a
 * disconnect from any replica reaches every socket.
 */
import { RedisAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import * as msgpack from 'notepack.io';
import type { Namespace } from 'socket.io';
import type { Logger } from '@raly/service-kit/logger';

/**
 * The socket.io adapter on Redis pub/sub, one per namespace, each with an
 * {@link ownBroadcastsParser} of its own.
 * @param publisher the shared client; @param subscriber a dedicated one
 * @param key the channels' prefix (LIVE_ADAPTER_KEY)
 * @returns socket.io's `adapter` option: namespace → adapter
 */
export function redisAdapter(publisher: Redis, subscriber: Redis, key: string, logger: Logger) {
  const publishing = publishingSafely(publisher, logger);
  // A function, not an arrow: socket.io calls it with `new`, and the object it returns is the adapter.
  return function adapterOf(namespace: Namespace) {
    // The uid is the adapter's own, known once it is constructed.
    const own: { uid?: string } = {};
    const adapter = new RedisAdapter(namespace, publishing, subscriber, {
      key,
      parser: ownBroadcastsParser(() => own.uid),
    });
    own.uid = adapter.uid as string;
    return adapter;
  };
}

/** msgpack's first byte of an array of three: a broadcast is `[uid, packet, options]`. */
const ARRAY_OF_THREE = 0x93;
/** msgpack's first byte of a string of `length` (< 32) bytes. */
const shortString = (length: number) => 0xa0 + length;

/**
 * The adapter's msgpack parser, but a broadcast this adapter published
 * itself decodes to `[uid]` alone: Redis sends every publish back to its own
 * subscriber too, and the adapter drops its own after reading the uid, so the
 * packet (a whole snapshot, each push) was decoded only to be thrown away.
 * Recognised by its first bytes, the encoding of `[<this uid>, …`; anything
 * else (other replicas' broadcasts, requests and responses) decodes in full.
 * @param ownUid the adapter's uid (6 ASCII characters), once it is constructed
 * @returns socket.io-redis-adapter's `Parser` (encode and decode of Buffers)
 */
export function ownBroadcastsParser(ownUid: () => string | undefined) {
  let prefix: Buffer | undefined;
  const prefixOf = (uid: string) =>
    (prefix ??= Buffer.concat([
      Buffer.from([ARRAY_OF_THREE, shortString(uid.length)]),
      Buffer.from(uid, 'latin1'),
    ]));
  return {
    encode: (message: unknown): Buffer => msgpack.encode(message),
    decode(message: Buffer): unknown {
      const uid = ownUid();
      if (uid !== undefined && uid.length < 32 && Buffer.isBuffer(message)) {
        const own = prefixOf(uid);
        if (message.length > own.length && message.subarray(0, own.length).equals(own))
          return [uid];
      }
      return msgpack.decode(message);
    },
  };
}

/**
 * The adapter's publishing client, whose failed publishes are logged: the
 * Redis adapter publishes without handling the promise, so a publish cut off
 * by a Redis restart was an unhandled rejection, which ends a Node process.
 * A push lost that way reaches the other replicas' sockets through their
 * catch-up once their subscriber is back (`LiveServer.catchUpAll`).
 */
function publishingSafely(redis: Redis, logger: Logger): Redis {
  return new Proxy(redis, {
    get(target, property) {
      if (property === 'publish')
        return (...args: Parameters<Redis['publish']>) =>
          target.publish(...args).catch((error: unknown) => {
            logger.warn({ err: error }, 'live: publish to the other replicas failed');
            return 0;
          });
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
