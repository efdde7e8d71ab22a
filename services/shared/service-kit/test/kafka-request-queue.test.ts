/**
 * The fix to kafkajs' request queue (src/kafka-request-queue.ts): an idle
 * queue arms no timer (kafkajs 2.2.4 armed a 1 ms one, again and again), a
 * throttle still arms one for its end, and a request that waits for the
 * throttle is still sent when it ends. On kafkajs' own class, as the apps
 * load it through src/kafka.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'vitest';
import { kafkajsRequestQueue } from '../src/kafka-request-queue';
import '../src/kafka';

/** The part of a kafkajs `RequestQueue` the tests drive. */
interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  maybeThrottle(ms: number): void;
  push(request: {
    entry: {
      correlationId: number;
      apiName: string;
      apiVersion: number;
      apiKey: number;
      resolve(): void;
      reject(): void;
    };
    expectResponse: boolean;
    sendRequest(): void;
  }): void;
  destroy(): void;
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const queues: Queue[] = [];

/** A queue of one (imaginary) broker connection, as kafkajs' Connection makes it. */
function newQueue(): Queue {
  const Constructor = kafkajsRequestQueue as unknown as new (options: object) => Queue;
  const queue = new Constructor({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: '127.0.0.1:1',
    logger: quiet,
  });
  queues.push(queue);
  return queue;
}

afterEach(() => {
  for (const queue of queues.splice(0)) queue.destroy();
});

describe("kafkajs' request queue", () => {
  test('an idle queue arms no timer after a check', () => {
    const queue = newQueue();
    queue.checkPendingRequests();
    assert.equal(queue.throttleCheckTimeoutId, null);
    assert.equal(queue.pending.length, 0);
  });

  test('a throttle in force arms a timer for its end', () => {
    const queue = newQueue();
    queue.maybeThrottle(5_000);
    queue.checkPendingRequests();
    assert.notEqual(queue.throttleCheckTimeoutId, null);
  });

  test('a request held by a throttle is sent once the throttle ends', async () => {
    const queue = newQueue();
    queue.maybeThrottle(30);
    let sent = 0;
    queue.push({
      entry: {
        correlationId: 1,
        apiName: 'Metadata',
        apiVersion: 0,
        apiKey: 3,
        resolve: () => undefined,
        reject: () => undefined,
      },
      expectResponse: false,
      sendRequest: () => {
        sent += 1;
      },
    });
    assert.equal(sent, 0, 'held while throttled');
    assert.equal(queue.pending.length, 1);
    const deadline = Date.now() + 2_000;
    while (sent === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
    assert.equal(sent, 1);
    assert.equal(queue.pending.length, 0);
    // Nothing left to send and no throttle: the queue is idle again, without a timer.
    await new Promise((done) => setTimeout(done, 20));
    assert.equal(queue.throttleCheckTimeoutId, null);
  });
});
