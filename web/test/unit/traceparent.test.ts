/**
 * The SPA's W3C `traceparent` header (lib/traceparent): well-formed, valid
 * ids, a new trace per call.
 */
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { newTraceparent } from '../../src/lib/traceparent.ts';

const format = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

test('when a traceparent is made, then it is version 00 with a 32-hex trace id, a 16-hex parent id and the sampled flag', () => {
  // Act
  const value = newTraceparent();

  // Assert
  const match = format.exec(value);
  assert.ok(match, value);
  assert.notEqual(match[1], '0'.repeat(32));
  assert.notEqual(match[2], '0'.repeat(16));
});

test('when several calls each make one, then every trace id differs', () => {
  // Act
  const traceIds = Array.from({ length: 50 }, () => format.exec(newTraceparent())![1]);

  // Assert
  assert.equal(new Set(traceIds).size, traceIds.length);
});
