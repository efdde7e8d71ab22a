/**
 * A Redis away for the moment is answered 503 `unavailable`, not 500: the
 * errors are ioredis's own, from a real client against the local Redis and
 * against a port nothing listens on.
 */
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { describe, test } from 'vitest';
import { freePort, resolveTestStack } from '@raly/test-stack';
import { failedBecauseOf, isRedisUnavailable, toAppError } from '../src/errors';

/** The rejection of `command`, or undefined when it resolved. */
async function failureOf(command: Promise<unknown>): Promise<unknown> {
  return command.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('a Redis away for the moment', () => {
  test('when a command is in flight as the connection closes, or Redis cannot be reached through its retries, then the error is a 503 unavailable, not a 500', async () => {
    // Arrange
    const stack = await resolveTestStack();
    const connected = new Redis(stack.redisUrl, { lazyConnect: true });
    await connected.connect();
    const nowhere = new Redis({
      host: '127.0.0.1',
      port: await freePort(),
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      retryStrategy: () => 10,
    });
    nowhere.on('error', () => undefined);

    // Act
    const blocked = failureOf(connected.blpop(`raly-kit-test-${Date.now()}`, 5));
    connected.disconnect();
    const closed = await blocked;
    const unreachable = await failureOf(nowhere.get('anything'));
    nowhere.disconnect();

    // Assert
    for (const error of [closed, unreachable]) {
      assert.ok(error instanceof Error, `a command failed: ${String(error)}`);
      assert.ok(isRedisUnavailable(error), String(error));
      assert.deepEqual(
        [toAppError(error).code, toAppError(error).httpStatus],
        ['unavailable', 503],
      );
      const failed = failedBecauseOf(
        'There was a problem updating your account. Try again.',
        error,
      );
      assert.equal(failed.httpStatus, 503);
    }
    assert.equal(isRedisUnavailable(new Error('WRONGTYPE Operation against a key')), false);
    assert.equal(isRedisUnavailable('Connection is closed.'), false);
  });
});
