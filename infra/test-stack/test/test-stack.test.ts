import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'vitest';
import {
  aUserRecord,
  creatorRegistration,
  eventually,
  forgetRegisteredEmails,
  freePort,
  step,
} from '../src/index';

describe('polling', () => {
  test('when the probe answers on its third try, then eventually returns that answer', async () => {
    let tries = 0;

    const answer = await eventually('the third try', () => (++tries === 3 ? 'done' : undefined), {
      intervalMs: 1,
    });

    assert.equal(answer, 'done');
    assert.equal(tries, 3);
  });

  test('when the probe never answers, then eventually fails naming what it waited for', async () => {
    await assert.rejects(
      eventually('a sign of life', () => false, { timeoutMs: 30, intervalMs: 5 }),
      /timed out after 30 ms waiting for a sign of life/,
    );
  });

  test('when a step fails, then its error names the step', async () => {
    await assert.rejects(
      step('the login form shows', () => assert.equal(1, 2)),
      (error: Error) => error.message.startsWith('step "the login form shows": '),
    );
    await assert.rejects(
      step('opening', () => Promise.reject(new Error('boom'))),
      {
        message: 'step "opening": boom',
      },
    );
  });
});

describe('ports', () => {
  test('when a free port is asked for, then a server can listen on it', async () => {
    const port = await freePort();
    const server = createServer();

    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });

    assert.equal((server.address() as { port: number }).port, port);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('records', () => {
  test('when two creator registrations are made, then their username and e-mail differ and both are remembered for clean-up', () => {
    forgetRegisteredEmails();

    const first = creatorRegistration();
    const second = creatorRegistration({ password: 'pw-chosen' });

    assert.notEqual(first.username, second.username);
    assert.notEqual(first.email, second.email);
    assert.equal(second.confirmPassword, 'pw-chosen');
    assert.deepEqual(forgetRegisteredEmails().sort(), [first.email, second.email].sort());
    assert.deepEqual(forgetRegisteredEmails(), []);
  });

  test('when a user record is made with overrides, then the overrides win and the rest is unique', () => {
    const one = aUserRecord({ version: 7 });
    const other = aUserRecord();

    assert.equal(one.version, 7);
    assert.notEqual(one.id, other.id);
    assert.notEqual(one.username, other.username);
  });
});
