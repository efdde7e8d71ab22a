/**
 * Commands the local Redis has run so far, by command (`INFO commandstats`,
 * https://redis.io/docs/latest/commands/info/): the live figure reads it
 * before and after a round for Redis commands per update. The Redis is the
 * shared stack's, so other clients' commands in the same seconds count too.
 */
import { Redis } from 'ioredis';

/**
 * Reads `INFO commandstats` over one short connection.
 * @param redisUrl `redis://host:port`
 * @returns command name → calls so far
 * @throws Error when Redis cannot be reached or answers an error
 */
export async function redisCommandCalls(redisUrl: string): Promise<Record<string, number>> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    const text = await redis.info('commandstats');
    const calls: Record<string, number> = {};
    for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
      calls[match[1]!] = Number(match[2]);
    return calls;
  } finally {
    redis.disconnect();
  }
}
