import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'vitest';
import type { UserRecord } from '@raly/contracts/records';
import { resolveTestStack } from '@raly/test-support';
import { migrate } from '@raly/service-kit/migrate';
import { dropDatabase, uniqueToken } from '@raly/test-support';
import pg from 'pg';
import { openIdentityDatabase } from '../src/data-access/database';
import { DuplicateUserError } from '../src/data-access/user-repository';
import { newCreator } from '../src/domain/accounts';
import { userCreatedEvent } from '../src/domain/events';
import { usernameChange } from '../src/domain/usernames';
import {
  call,
  callAsBrand,
  registeredCreator,
  useIdentityService,
  usersOf,
  type Harness,
} from './support';

const harness = useIdentityService();

const migrationsDir = path.join(import.meta.dirname, '..', 'prisma', 'migrations');

async function holderOf(h: Harness, username: string) {
  const { rows } = await h.sql.query<{ owner_type: string; owner_id: string }>(
    'SELECT owner_type, owner_id FROM usernames WHERE username = $1',
    [username],
  );
  return rows[0] ?? null;
}

describe("a creator's username change", () => {
  test('when a creator changes the username, then the old one is released and another creator can take it right after', async () => {
    // Arrange
    const first = await registeredCreator(harness);
    const second = await registeredCreator(harness);
    const oldUsername = first.registration.username.toLowerCase();
    const newUsername = `moved${uniqueToken(8)}`;

    // Act
    const moved = await call(
      harness,
      'PATCH',
      '/users/me',
      { username: newUsername },
      first.accessToken,
    );
    const taken = await call<UserRecord>(
      harness,
      'PATCH',
      '/users/me',
      { username: oldUsername },
      second.accessToken,
    );

    // Assert
    assert.equal(moved.status, 200);
    assert.equal(taken.status, 200);
    assert.equal(taken.body.data?.username, oldUsername);
    assert.deepEqual(await holderOf(harness, newUsername), {
      owner_type: 'user',
      owner_id: first.userId,
    });
    assert.deepEqual(await holderOf(harness, oldUsername), {
      owner_type: 'user',
      owner_id: second.userId,
    });
  });

  test('when creators changing their username and brands claiming it race for one username, then exactly one wins and the registry names it', async () => {
    // Arrange
    const creators = await Promise.all(Array.from({ length: 5 }, () => registeredCreator(harness)));
    const brandIds = Array.from({ length: 5 }, () => uniqueToken(12));
    const username = `race${uniqueToken(8)}`;

    // Act
    const answers = await Promise.all([
      ...creators.map((creator) =>
        call(harness, 'PATCH', '/users/me', { username }, creator.accessToken),
      ),
      ...brandIds.map((ownerId) =>
        callAsBrand(harness, 'POST', '/usernames/claim', { username, ownerType: 'brand', ownerId }),
      ),
    ]);

    // Assert
    const statuses = answers.map((answer) => answer.status);
    assert.equal(statuses.filter((status) => status === 200).length, 1, statuses.join());
    assert.equal(statuses.filter((status) => status === 409).length, 9, statuses.join());
    const winner = statuses.indexOf(200);
    const expected =
      winner < creators.length
        ? { owner_type: 'user', owner_id: creators[winner]!.userId }
        : { owner_type: 'brand', owner_id: brandIds[winner - creators.length]! };
    assert.deepEqual(await holderOf(harness, username), expected);
    const { rows } = await harness.sql.query('SELECT id FROM users WHERE username = $1', [
      username,
    ]);
    assert.equal(rows.length, expected.owner_type === 'user' ? 1 : 0);
  });
});

describe('unique violations told apart by constraint name', () => {
  test('when a write clashes on the e-mail, the username, the registry or the id, then DuplicateUserError names that field', async () => {
    // Arrange
    const database = openIdentityDatabase(harness.database.url);
    const users = usersOf(database);
    const token = uniqueToken(10);
    const existing = newCreator({
      id: `id-${token}`,
      username: `held${token}`,
      email: `held-${token}@raly.test`,
    });
    const brandHeld = `brandheld${token}`;
    try {
      await users.insertWithEvent(
        existing,
        userCreatedEvent,
        usernameChange('user', existing.id, null, existing.username as string),
      );
      await harness.sql.query(
        "INSERT INTO usernames (username, owner_type, owner_id) VALUES ($1, 'brand', $2)",
        [brandHeld, token],
      );
      const fresh = (suffix: string, values: { id?: string; username?: string; email?: string }) =>
        newCreator({
          id: values.id ?? `id-${suffix}-${token}`,
          username: values.username ?? `u${suffix}${token}`,
          email: values.email ?? `${suffix}-${token}@raly.test`,
        });
      const fieldOf = async (write: Promise<unknown>) =>
        write.then(
          () => 'no clash',
          (error: unknown) => (error instanceof DuplicateUserError ? error.field : String(error)),
        );

      // Act
      const email = await fieldOf(
        users.insertWithEvent(fresh('e', { email: existing.email }), userCreatedEvent),
      );
      const username = await fieldOf(
        users.insertWithEvent(
          fresh('u', { username: existing.username as string }),
          userCreatedEvent,
        ),
      );
      const registry = await fieldOf(
        users.insertWithEvent(
          fresh('r', { username: brandHeld }),
          userCreatedEvent,
          usernameChange('user', `id-r-${token}`, null, brandHeld),
        ),
      );
      const id = await fieldOf(
        users.insertWithEvent(fresh('i', { id: existing.id }), userCreatedEvent),
      );

      // Assert
      assert.deepEqual(
        { email, username, registry, id },
        { email: 'email', username: 'username', registry: 'username', id: 'id' },
      );
    } finally {
      await database.close();
    }
  });
});

describe('migration 20251124000000_username_claims_without_trigger', () => {
  test("when the trigger is replaced by the domain's claims, then every creator keeps its claim, a missing one is restored and no trigger is left", async () => {
    // Arrange: a database migrated up to the trigger, with creators it registered
    const stack = await resolveTestStack();
    const url = stack.databaseUrl(`raly_identity_test_${uniqueToken(12)}`);
    const upToTrigger = await mkdtemp(path.join(os.tmpdir(), 'identity-migrations-'));
    const pool = new pg.Pool({ connectionString: url });
    try {
      for (const name of await readdir(migrationsDir)) {
        if (name < '20251124000000')
          await cp(path.join(migrationsDir, name), path.join(upToTrigger, name), {
            recursive: true,
          });
      }
      await migrate(url, upToTrigger);
      const insertCreator = (id: string, username: string) =>
        pool.query(
          `INSERT INTO users (id, username, email, notify_offers, updated_at)
           VALUES ($1, $2, $3, true, now())`,
          [id, username, `${id}@raly.test`],
        );
      await insertCreator('kept', 'keptname');
      await insertCreator('lost', 'lostname');
      await pool.query("DELETE FROM usernames WHERE username = 'lostname'");
      await pool.query(
        "INSERT INTO usernames (username, owner_type, owner_id) VALUES ('brandname', 'brand', 'b1')",
      );

      // Act
      await migrate(url, migrationsDir);

      // Assert
      const { rows: claims } = await pool.query(
        'SELECT username, owner_type, owner_id FROM usernames ORDER BY username',
      );
      assert.deepEqual(claims, [
        { username: 'brandname', owner_type: 'brand', owner_id: 'b1' },
        { username: 'keptname', owner_type: 'user', owner_id: 'kept' },
        { username: 'lostname', owner_type: 'user', owner_id: 'lost' },
      ]);
      const { rows: triggers } = await pool.query(
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'users'::regclass AND NOT tgisinternal",
      );
      assert.deepEqual(triggers, []);
      await pool.query("UPDATE users SET username = 'renamed' WHERE id = 'kept'");
      assert.equal(
        (await pool.query("SELECT * FROM usernames WHERE username = 'renamed'")).rowCount,
        0,
        'nothing claims behind the domain',
      );
    } finally {
      await pool.end();
      await dropDatabase(url);
      await rm(upToTrigger, { recursive: true, force: true });
    }
  });
});
