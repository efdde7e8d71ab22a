/** Dropping a test database once its test file is done with it. */
import pg from 'pg';

/**
 * Drops a test database (ends its other connections first).
 * @param databaseUrl URL of the database to drop
 */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const database = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // Connections a stopped app closes are ended asynchronously: wait (bounded) until they
    // are gone. Forcing one that is still in use would raise an 'error' on its client in this
    // process — unheard, an uncaught exception that fails the run for nothing.
    const sessions = async () =>
      (
        await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [database],
        )
      ).rows[0]!.n;
    for (let poll = 0; poll < 100 && (await sessions()) > 0; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const left = await sessions();
    if (left > 0) {
      // Still held after 10 s: a connection leaked by the code under test. Leave the database
      // (named `*_test_*`, harmless) rather than crash the test run; say so.
      console.warn(`test database ${database} kept: ${left} connection(s) still open after 10 s`);
      return;
    }
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
