import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { newClusterId } from '../src/stack/kafka';

describe('a new Kafka cluster id', () => {
  test('when many are drawn, then each is 22 URL-safe base64 characters and none starts with "-" (StorageTool would take it for an option)', () => {
    // 1 id in 64 starts with "-" when drawn plainly: 5,000 draws meet ~78 of them.
    const ids = Array.from({ length: 5000 }, () => newClusterId());

    for (const id of ids) {
      assert.match(id, /^[A-Za-z0-9_-]{22}$/);
      assert.ok(!id.startsWith('-'), id);
    }
    assert.equal(new Set(ids).size, ids.length);
  });
});
