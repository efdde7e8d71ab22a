/**
 * A fix to kafkajs 2.2.4's request queue, applied once on import (./kafka
 * imports it, so every Kafka client the apps make has it).
 *
 * Each broker connection of kafkajs has a `RequestQueue` whose
 * `scheduleCheckPendingRequests` arms a timer even when no request is
 * pending and the broker has not throttled the client: the delay is then
 * `throttledUntil - Date.now()` with `throttledUntil` -1, a negative number
 * that Node runs as 1 ms (and warns of, `TimeoutNegativeWarning`, on Node
 * 24), and the check it runs arms the next one. Every connection thus woke
 * its process a thousand times a second, idle or not: 40–50 ms of CPU a
 * second per app in the bench (docs/benchmarks.md "Changes and their
 * effect"). Upstream: tulios/kafkajs issues 1556, 1704 and 1751; the fix of
 * pull request 1667, never released (the library has no release since
 * 2.2.4).
 *
 * Fixed here as that pull request does: with nothing pending and no
 * throttle in force no timer is armed. Nothing waits for it: a request
 * pushed later, or one that completes, schedules the check again, and a
 * throttle still arms its timer.
 */
// The declaration of kafkajs' untyped module must reach every workspace that compiles this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./kafkajs-internals.d.ts" />
import RequestQueue from 'kafkajs/src/network/requestQueue/index.js';

/** The fields of kafkajs' `RequestQueue` that the scheduling reads and writes. */
interface RequestQueueState {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
}

/** kafkajs' `CHECK_PENDING_REQUESTS_INTERVAL`: how soon pending requests are checked again, ms. */
export const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/**
 * kafkajs' `scheduleCheckPendingRequests` without the idle timer: the check
 * is armed for pending requests (when the throttle ends, else after
 * {@link CHECK_PENDING_REQUESTS_INTERVAL_MS}) and for a throttle in force;
 * otherwise none.
 */
export function scheduleCheckPendingRequests(this: RequestQueueState): void {
  if (this.throttleCheckTimeoutId) return;
  const throttleLeftMs = this.throttledUntil - Date.now();
  let delayMs = throttleLeftMs;
  if (this.pending.length > 0)
    delayMs = throttleLeftMs > 0 ? throttleLeftMs : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  else if (throttleLeftMs <= 0) return;
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delayMs);
}

/**
 * kafkajs' `RequestQueue` class, imported from its source path (not part of
 * its public API): the very module kafkajs uses, in a bundle as under Node.
 */
export const kafkajsRequestQueue = RequestQueue as unknown as {
  prototype: RequestQueueState & { scheduleCheckPendingRequests(): void };
};

kafkajsRequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
