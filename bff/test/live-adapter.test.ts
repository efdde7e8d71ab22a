/**
 * The live server's Redis adapter parser (bff/src/live/redis-adapter.ts): a
 * broadcast the adapter published itself is dropped from its first bytes,
 * without decoding its packet; everything else decodes as msgpack does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import * as msgpack from 'notepack.io';
import { ownBroadcastsParser } from '../src/live/redis-adapter';

const packet = { type: 2, data: ['user.updated', { id: 'u1', version: 7 }], nsp: '/' };
const options = { rooms: ['user:u1'], except: [], flags: {} };

describe('the adapter parser', () => {
  test("when the adapter's own broadcast comes back from Redis, then only its uid is decoded", () => {
    const parser = ownBroadcastsParser(() => 'Ab3_x9');

    const decoded = parser.decode(parser.encode(['Ab3_x9', packet, options]));

    assert.deepEqual(decoded, ['Ab3_x9']);
  });

  test("when another replica's broadcast, a request or anything before the uid is known comes, then it decodes in full", () => {
    const parser = ownBroadcastsParser(() => 'Ab3_x9');
    const beforeUid = ownBroadcastsParser(() => undefined);
    const others = ['Zz9-q1', packet, options];
    const request = { uid: 'Ab3_x9', type: 2, opts: { rooms: ['brand:b1'] } };
    const ownBroadcast = ['Ab3_x9', packet, options];

    assert.deepEqual(parser.decode(parser.encode(others)), others);
    assert.deepEqual(parser.decode(msgpack.encode(request)), request);
    assert.deepEqual(beforeUid.decode(msgpack.encode(ownBroadcast)), ownBroadcast);
    assert.deepEqual(parser.decode(msgpack.encode(['Ab3_x', packet, options])), [
      'Ab3_x',
      packet,
      options,
    ]);
  });
});
