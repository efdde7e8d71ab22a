/**
 * The Redis adapter through which replicas share rooms: a push or a
 * disconnect from any replica reaches every socket.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Logger } from '@raly/service-kit/logger';

/**
 * The socket.io adapter on Redis pub/sub.
 * @param publisher the shared client; @param subscriber a dedicated one
 * @param key the channels' prefix (LIVE_ADAPTER_KEY)
 */
export function redisAdapter(publisher: Redis, subscriber: Redis, key: string, logger: Logger) {
  return createAdapter(publishingSafely(publisher, logger), subscriber, { key });
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
