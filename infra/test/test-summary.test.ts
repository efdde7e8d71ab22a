import assert from 'node:assert/strict';
import { test } from 'vitest';
import { parseTestSummary } from '../src/cli/test-summary';

test('when a workspace ran several test commands, then their TAP and spec summaries are summed', () => {
  const output = [
    '# tests 5',
    '# pass 4',
    '# fail 1',
    'ok 1 - x',
    'ℹ pass 10',
    'ℹ fail 0',
    '# pass me the salt',
  ].join('\n');

  assert.deepEqual(parseTestSummary(output), { passed: 14, failed: 1, found: true });
});

test('when a workspace printed no summary, then nothing is counted and that is reported', () => {
  assert.deepEqual(parseTestSummary('Error: cannot find module'), {
    passed: 0,
    failed: 0,
    found: false,
  });
});
