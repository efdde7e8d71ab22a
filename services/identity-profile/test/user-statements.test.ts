/**
 * What a profile change costs Postgres: the round trips of the user
 * repository's hot paths, counted on a pool over the service's database with
 * the service's own repository (src/data-access/user-repository.ts), pinned so
 * that a change adding a round trip shows here. A read by id is one prepared
 * statement; an update without a username change is BEGIN, the prepared
 * `UPDATE … RETURNING` and the event's INSERT sent with COMMIT; a username
 * change still goes through Prisma with the registry.
 */
import assert from 'node:assert/strict';
import { recordStatements } from '@raly/test-support';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openIdentityDatabase, type IdentityDatabase } from '../src/data-access/database';
import { userUpdatedEvent } from '../src/domain/events';
import { registeredCreator, useIdentityService, usersOf } from './support';

const harness = useIdentityService();
let database: IdentityDatabase;
/** Every statement sent on `database`'s pool, in order (its SQL text). */
let statements: string[] = [];

beforeAll(() => {
  database = openIdentityDatabase(harness.database.url, { poolMax: 2 });
  statements = recordStatements(database.pool);
});

afterAll(async () => {
  await database?.close();
});

describe('the user repository on Postgres', () => {
  test('when a user is read and then changed, then the read is one statement and the change three round trips, and the event carries the new version', async () => {
    // Arrange
    const { userId } = await registeredCreator(harness);
    const users = usersOf(database);

    // Act
    statements.length = 0;
    const before = await users.findById(userId);
    const reads = statements.splice(0);
    const after = await users.updateWithEvent(
      userId,
      { phoneNumber: '+15550001111' },
      userUpdatedEvent,
    );
    const writes = statements.splice(0);

    // Assert
    assert.ok(before);
    assert.equal(reads.length, 1);
    assert.match(reads[0]!, /^SELECT .* FROM users WHERE id = \$1$/s);
    assert.deepEqual(
      writes.map((text) => text.split(/\s+/)[0]),
      ['BEGIN', 'UPDATE', 'INSERT'],
      writes.join('\n'),
    );
    assert.match(writes[2]!, /; COMMIT$/);
    assert.equal(after?.version, before.version + 1);
    assert.equal(after?.phoneNumber, '+15550001111');
    const { rows } = await database.pool.query<{ version: number; event_type: string }>(
      `SELECT (envelope->>'version')::int AS version, event_type FROM outbox
       WHERE key = $1 ORDER BY sequence DESC LIMIT 1`,
      [userId],
    );
    assert.deepEqual(rows[0], { version: before.version + 1, event_type: 'identity.user.updated' });
  });

  test('when an unknown user is changed, then nothing is written and null comes back', async () => {
    // Act
    const changed = await usersOf(database).updateWithEvent(
      `unknown-${Date.now()}`,
      { phoneNumber: '+15550002222' },
      userUpdatedEvent,
    );

    // Assert
    assert.equal(changed, null);
  });
});
