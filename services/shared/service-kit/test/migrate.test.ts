import assert from 'node:assert/strict';
import { cp, mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test, afterAll } from 'vitest';
import pg from 'pg';
import { migrate, migrationChecksum, outboxMigrationsDir } from '../src/migrate';
import { dropDatabase, resolveTestStack, uniqueToken } from '@raly/test-stack';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'migrations');
/** The fixtures' one migration and the kit's outbox migrations every database gets, in name order. */
const allMigrations = [
  '20250102000000_widgets',
  '20251121000000_outbox',
  '20251123000000_outbox_partial_indexes',
  '20251125000000_outbox_trace_context',
];
const databases: string[] = [];

async function freshDatabaseUrl(): Promise<string> {
  const url = (await resolveTestStack()).databaseUrl(`raly_kit_test_${uniqueToken(12)}`);
  databases.push(url);
  return url;
}

async function query<T extends pg.QueryResultRow>(databaseUrl: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await Promise.all(databases.map(dropDatabase));
});

describe('migration runner', () => {
  test('when the database is missing, then it is created and every migration is applied and recorded with its checksum', async () => {
    // Arrange
    const databaseUrl = await freshDatabaseUrl();
    const outboxScript = await readFile(
      path.join(outboxMigrationsDir, '20251121000000_outbox', 'migration.sql'),
      'utf8',
    );

    // Act
    const result = await migrate(databaseUrl, fixtures, { engine: 'raly' });

    // Assert
    assert.deepEqual(result.applied, allMigrations);
    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      databaseUrl,
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    assert.equal(rows.length, allMigrations.length);
    assert.equal(rows[1]?.checksum, migrationChecksum(outboxScript));
    assert.match(rows[1]?.checksum ?? '', /^[0-9a-f]{64}$/);
    assert.ok(
      rows.every((row) => row.finished_at instanceof Date && row.applied_steps_count === 1),
    );
    await query(databaseUrl, 'SELECT outbox.status, widgets.name FROM outbox, widgets LIMIT 0');
  });

  test('when the migrations run a second time, then nothing is applied', async () => {
    // Arrange
    const databaseUrl = await freshDatabaseUrl();
    await migrate(databaseUrl, fixtures, { engine: 'raly' });

    // Act
    const second = await migrate(databaseUrl, fixtures, { engine: 'raly' });

    // Assert
    assert.deepEqual(second.applied, []);
    const [count] = await query<{ n: number }>(
      databaseUrl,
      'SELECT count(*)::int AS n FROM "_prisma_migrations"',
    );
    assert.equal(count?.n, allMigrations.length);
  });

  test('when two replicas migrate at once, then each migration is applied exactly once', async () => {
    // Arrange
    const databaseUrl = await freshDatabaseUrl();

    // Act
    const [first, second] = await Promise.all([
      migrate(databaseUrl, fixtures, { engine: 'raly' }),
      migrate(databaseUrl, fixtures, { engine: 'raly' }),
    ]);

    // Assert
    assert.equal(first.applied.length + second.applied.length, allMigrations.length);
    const [count] = await query<{ n: number }>(
      databaseUrl,
      'SELECT count(*)::int AS n FROM "_prisma_migrations"',
    );
    assert.equal(count?.n, allMigrations.length);
  });

  test('when a new migration fails, then its changes are rolled back and it is not recorded', async () => {
    // Arrange
    const databaseUrl = await freshDatabaseUrl();
    const migrationsDir = await mkdtemp(path.join(tmpdir(), 'raly-migrations-'));
    await cp(fixtures, migrationsDir, { recursive: true });
    await migrate(databaseUrl, migrationsDir, { engine: 'raly' });
    await mkdir(path.join(migrationsDir, '20250103000000_broken'));
    await writeFile(
      path.join(migrationsDir, '20250103000000_broken', 'migration.sql'),
      'CREATE TABLE "gadgets" ("id" TEXT);\nSELECT no_such_function();\n',
    );

    // Act
    const attempt = migrate(databaseUrl, migrationsDir, { engine: 'raly' });

    // Assert
    await assert.rejects(attempt, /20250103000000_broken failed/);
    const gadgets = await query<{ t: string | null }>(
      databaseUrl,
      `SELECT to_regclass('gadgets')::text AS t`,
    );
    assert.equal(gadgets[0]?.t, null);
    const [count] = await query<{ n: number }>(
      databaseUrl,
      'SELECT count(*)::int AS n FROM "_prisma_migrations"',
    );
    assert.equal(count?.n, allMigrations.length);
  });

  test('when a service folder has a migration named as an outbox one, then nothing is applied and the clash is named', async () => {
    // Arrange
    const databaseUrl = await freshDatabaseUrl();
    const migrationsDir = await mkdtemp(path.join(tmpdir(), 'raly-migrations-'));
    await cp(
      path.join(outboxMigrationsDir, '20251121000000_outbox'),
      path.join(migrationsDir, '20251121000000_outbox'),
      { recursive: true },
    );

    // Act
    const attempt = migrate(databaseUrl, migrationsDir, { engine: 'raly' });

    // Assert
    await assert.rejects(attempt, /Migration 20251121000000_outbox is in both/);
    const tables = await query<{ t: string | null }>(
      databaseUrl,
      `SELECT to_regclass('outbox')::text AS t`,
    );
    assert.equal(tables[0]?.t, null);
  });
});

describe("the kit's outbox migrations", () => {
  test('when compared with what the services recorded, then each has the same name and checksum', async () => {
    // Arrange: the checksums every service database recorded when each service kept its own copy
    const recorded = {
      '20251121000000_outbox': 'f5a247d20ae8fe677cd782c229f7dce379a2c148f9a68810dbe6f596edfea234',
      '20251123000000_outbox_partial_indexes':
        'ad3ca766cf99bb5e926b80a7b721edb4595d014491fdba0489210feeba7d329b',
      '20251125000000_outbox_trace_context':
        'b19df579212a0a9b7fc91a3d7ae28e045d92a15d82c87e3435f0192d952c2670',
    };

    // Act
    const checksums = Object.fromEntries(
      await Promise.all(
        Object.keys(recorded).map(async (name) => [
          name,
          migrationChecksum(
            await readFile(path.join(outboxMigrationsDir, name, 'migration.sql'), 'utf8'),
          ),
        ]),
      ),
    );

    // Assert: a database that applied them is up to date, never asked to apply them again
    assert.deepEqual(checksums, recorded);
  });
});
