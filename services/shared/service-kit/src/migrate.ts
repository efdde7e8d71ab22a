/**
 * Applies a service's committed Prisma migrations without Prisma's schema
 * engine (which cannot be downloaded on our machines), recording them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does, so that a
 * machine with the engine sees them as applied. With
 * `PRISMA_MIGRATE_ENGINE=prisma` it runs `prisma migrate deploy` instead.
 * Every service database gets the outbox table from the kit's own
 * migrations ({@link outboxMigrationsDir}), applied with the service's.
 * Why and how: docs/adr/0001-prisma-migrations-without-engine.md.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/** The advisory lock key `prisma migrate` takes, so our runner and Prisma's exclude each other. */
export const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/**
 * The outbox table's migrations, defined once for every service (names and
 * bytes unchanged since the services first applied them, so databases that
 * recorded them under these names see them as applied). The path holds in
 * the sources (services/shared/service-kit/src → services/shared/service-kit/prisma/outbox/migrations) and
 * in a service image, whose bundle runs from /app/dist and gets the folder
 * at /app/prisma/outbox/migrations (services/<name>/Dockerfile).
 */
export const outboxMigrationsDir = path.join(
  import.meta.dirname,
  '..',
  'prisma',
  'outbox',
  'migrations',
);

/** The DDL of Prisma's migrations table (prisma-engines, sql-migration-connector). */
const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrateResult {
  /** Names of the migrations applied by this run, in order. */
  applied: string[];
  /** Which engine ran them. */
  engine: 'raly' | 'prisma';
}

export interface MigrateOptions {
  /** Default env PRISMA_MIGRATE_ENGINE; `prisma` runs `prisma migrate deploy`. */
  engine?: string;
}

/**
 * Brings a service database up to date: the kit's outbox migrations and the
 * service's, in the order of their names.
 * @param databaseUrl `postgresql://…/<database>`; the database is created when missing
 * @param migrationsDir the service's `prisma/migrations` folder
 * @returns the migrations applied now (none when already up to date)
 * @throws when a migration fails (its transaction is rolled back, nothing is
 *   recorded), when the table holds a failed migration left by Prisma, or when
 *   the service's folder has a migration named as one of the outbox's
 */
export async function migrate(
  databaseUrl: string,
  migrationsDir: string,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  await createDatabaseIfMissing(databaseUrl);
  const engine = options.engine ?? process.env.PRISMA_MIGRATE_ENGINE;
  if (engine === 'prisma') {
    await prismaMigrateDeploy(databaseUrl, migrationsDir);
    return { applied: [], engine: 'prisma' };
  }
  const migrations = await readMigrations([outboxMigrationsDir, migrationsDir]);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    try {
      return { applied: await applyPending(client, migrations), engine: 'raly' };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

interface Migration {
  name: string;
  script: string;
  /** sha256 of the script, lowercase hex: what Prisma stores in `checksum`. */
  checksum: string;
}

/**
 * Prisma's checksum of a migration script.
 * @returns sha256 of the file's bytes as 64 lowercase hex characters
 */
export function migrationChecksum(script: string): string {
  return createHash('sha256').update(script, 'utf8').digest('hex');
}

/** The migration folders of `dirs`, by name. @throws when two folders share a name */
async function migrationFolders(dirs: string[]): Promise<Map<string, string>> {
  const folders = new Map<string, string>();
  for (const dir of dirs) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const other = folders.get(entry.name);
      if (other) throw new Error(`Migration ${entry.name} is in both ${other} and ${dir}`);
      folders.set(entry.name, dir);
    }
  }
  return folders;
}

/** The migrations of `dirs` together, in name order. */
async function readMigrations(dirs: string[]): Promise<Migration[]> {
  const folders = await migrationFolders(dirs);
  const names = [...folders.keys()].sort();
  return Promise.all(
    names.map(async (name) => {
      const script = await readFile(path.join(folders.get(name)!, name, 'migration.sql'), 'utf8');
      return { name, script, checksum: migrationChecksum(script) };
    }),
  );
}

async function applyPending(client: pg.Client, migrations: Migration[]): Promise<string[]> {
  await client.query(MIGRATIONS_TABLE_DDL);
  const { rows } = await client.query<{
    migration_name: string;
    checksum: string;
    finished_at: Date | null;
  }>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
  );
  const failed = rows.find((row) => row.finished_at === null);
  if (failed) {
    throw new Error(
      `Migration ${failed.migration_name} failed earlier and is not resolved; fix it with \`prisma migrate resolve\` (P3009)`,
    );
  }
  const applied = new Set(rows.map((row) => row.migration_name));
  const appliedNow: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    await client.query('BEGIN');
    try {
      await client.query(migration.script);
      await client.query(
        `INSERT INTO "_prisma_migrations"
           (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    appliedNow.push(migration.name);
  }
  return appliedNow;
}

/**
 * Creates the URL's database unless it exists (two replicas may race: the
 * loser's "already exists" is fine).
 */
export async function createDatabaseIfMissing(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new Error(`No database name in ${url.origin}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      database,
    ]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 42P04 duplicate_database; 23505 when the catalog insert races.
    if (code !== '42P04' && code !== '23505') throw error;
  } finally {
    await client.end();
  }
}

/**
 * `prisma migrate deploy` in the service folder (the parent of `prisma/`), for machines with the
 * engine, over a temporary folder holding the outbox's and the service's migrations together
 * (the service's prisma.config.ts reads PRISMA_MIGRATIONS_DIR; its image merges them at build).
 */
async function prismaMigrateDeploy(databaseUrl: string, migrationsDir: string): Promise<void> {
  const serviceDir = path.resolve(migrationsDir, '..', '..');
  const merged = await mkdtemp(path.join(tmpdir(), 'raly-migrations-'));
  try {
    await migrationFolders([outboxMigrationsDir, migrationsDir]);
    await cp(outboxMigrationsDir, merged, { recursive: true });
    await cp(migrationsDir, merged, { recursive: true });
    await promisify(execFile)('npx', ['prisma', 'migrate', 'deploy'], {
      cwd: serviceDir,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_MIGRATIONS_DIR: merged },
    });
  } finally {
    await rm(merged, { recursive: true, force: true });
  }
}

/**
 * The `npm run migrate` command of a service: migrates env DATABASE_URL
 * (else the service's default) with the outbox's and the service's
 * migrations, and prints what it did.
 * @param serviceDir the service folder (holding `prisma/migrations`)
 */
export async function migrateCommand(
  serviceDir: string,
  defaultDatabaseUrl: string,
): Promise<void> {
  const result = await migrate(
    process.env.DATABASE_URL ?? defaultDatabaseUrl,
    path.join(serviceDir, 'prisma', 'migrations'),
  );
  console.log(
    result.applied.length
      ? `applied ${result.applied.join(', ')}`
      : `up to date (${result.engine})`,
  );
}
