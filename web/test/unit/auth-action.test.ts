import { test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readAuthAction, RESET_PASSWORD_MODE } from '../../src/features/auth/utils/auth-action.ts';

const aLinkQuery = () => ({
  apiKey: `key-${randomUUID()}`,
  mode: RESET_PASSWORD_MODE,
  oobCode: randomUUID(),
});

test('when apiKey, mode and oobCode are all present, then the action carries them', () => {
  const query = aLinkQuery();

  const action = readAuthAction(new URLSearchParams(query));

  assert.deepEqual(action, query);
});

for (const missing of ['apiKey', 'mode', 'oobCode'] as const) {
  test(`when ${missing} is missing, then there is no action (the visitor goes home)`, () => {
    const query: Record<string, string> = aLinkQuery();
    delete query[missing];

    assert.equal(readAuthAction(new URLSearchParams(query)), null);
  });

  test(`when ${missing} is empty, then there is no action`, () => {
    const query = { ...aLinkQuery(), [missing]: '' };

    assert.equal(readAuthAction(new URLSearchParams(query)), null);
  });
}

test('when the mode is another one, then the action still reads it (the page shows nothing for it)', () => {
  const query = { ...aLinkQuery(), mode: 'verifyEmail' };

  assert.equal(readAuthAction(new URLSearchParams(query))?.mode, 'verifyEmail');
});
