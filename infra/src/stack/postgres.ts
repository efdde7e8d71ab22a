/**
 * Postgres: the Debian cluster on 127.0.0.1:5432 (trust auth for user postgres),
 * started with pg_ctlcluster if it is not running, installed with apt if missing.
 * Owns the creation of the services' databases and Keycloak's.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import type { StackComponent } from './component';
import { installDebianPackages } from './debian';
import { execFileAsync, stopRecorded, writeRunRecord } from './processes';
import { waitUntilHealthy } from './probes';
import { say, withProgress } from './progress';
import { host, keycloakDatabase, ports, postgresUrl, serviceDatabases } from './settings';

const name = 'postgres';

async function withClient<T>(
  database: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({
    connectionString: postgresUrl(database),
    connectionTimeoutMillis: 2000,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function isHealthy(): Promise<boolean> {
  try {
    await withClient('postgres', (client) => client.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

function clusterVersion(): string | undefined {
  if (!existsSync('/etc/postgresql')) return undefined;
  return readdirSync('/etc/postgresql').sort((a, b) => Number(b) - Number(a))[0];
}

/** A fresh Debian cluster asks for passwords on TCP; the local stack uses trust, like the CI image. */
function trustLoopbackConnections(version: string): void {
  const hbaPath = `/etc/postgresql/${version}/main/pg_hba.conf`;
  const original = readFileSync(hbaPath, 'utf8');
  const trusted = original.replace(
    /^(host\s+all\s+all\s+(?:127\.0\.0\.1\/32|::1\/128)\s+)\S+\s*$/gm,
    (_line, prefix: string) => `${prefix}trust`,
  );
  if (trusted !== original) {
    writeFileSync(hbaPath, trusted);
    say(name, `set trust authentication for loopback connections in ${hbaPath}`);
  }
}

async function ensure(): Promise<'reused' | 'started'> {
  if (await isHealthy()) return 'reused';
  let version = clusterVersion();
  let installedNow = false;
  if (!version || !existsSync('/usr/bin/pg_ctlcluster')) {
    await installDebianPackages(name, ['postgresql']);
    version = clusterVersion();
    installedNow = true;
  }
  if (!version)
    throw new Error(`${name}: no cluster under /etc/postgresql after installing postgresql`);
  if (installedNow) trustLoopbackConnections(version);
  await withProgress(name, `starting cluster ${version}/main`, async () => {
    const control = ['--skip-systemctl-redirect', version, 'main'];
    if (installedNow)
      await execFileAsync('pg_ctlcluster', [...control, 'stop']).catch(() => undefined);
    await execFileAsync('pg_ctlcluster', [...control, 'start']);
    writeRunRecord({
      component: name,
      kind: 'command',
      stop: ['pg_ctlcluster', ...control, 'stop'],
      startedAt: new Date().toISOString(),
    });
    await waitUntilHealthy(isHealthy, { component: name, timeoutMs: 60_000 });
  });
  return 'started';
}

/** Creates the services' databases and Keycloak's if they are missing. */
export async function ensureDatabases(): Promise<void> {
  await withClient('postgres', async (client) => {
    for (const database of [...serviceDatabases, keycloakDatabase]) {
      const existing = await client.query('select 1 from pg_database where datname = $1', [
        database,
      ]);
      if (existing.rowCount) continue;
      try {
        await client.query(`create database "${database}"`);
        say(name, `created database ${database}`);
      } catch (error) {
        // Another process may have created it between the check and the create.
        if (
          (error as { code?: string }).code !== '42P04' &&
          (error as { code?: string }).code !== '23505'
        )
          throw error;
      }
    }
  });
}

/** Drops and recreates one database (Keycloak's, when its realm file changed). */
export async function recreateDatabase(database: string): Promise<void> {
  await withClient('postgres', async (client) => {
    await client.query(`drop database if exists "${database}" with (force)`);
    await client.query(`create database "${database}"`);
  });
}

export const postgres: StackComponent = {
  name,
  address: `${host}:${ports.postgres}`,
  isHealthy,
  ensure,
  stop: () => stopRecorded(name),
};
