/**
 * apt-get runs of the stack queue behind one another across processes (flock on one lock file)
 * and wait for a lock somebody else holds (DPkg::Lock::Timeout), so two installs started at once
 * (HAProxy and Prometheus in the scaled topology) cannot fail on apt's lock.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { aptCommand, aptQueueLock, lockWaitSeconds } from '../src/stack/debian';

describe('apt-get runs', () => {
  test('when an apt-get command is built, then it holds the project lock and waits for apt', () => {
    // Act
    const { command, args } = aptCommand(['update', '-q']);

    // Assert
    assert.equal(command, 'flock');
    assert.deepEqual(args.slice(0, 4), ['-w', String(lockWaitSeconds), aptQueueLock, 'apt-get']);
    assert.ok(args.includes(`DPkg::Lock::Timeout=${lockWaitSeconds}`));
    assert.deepEqual(args.slice(-2), ['update', '-q']);
  });
});
