/**
 * `@raly/infra/test-env`: where tests find the stack. In order:
 *   1. environment variables (docs/conventions.md) when KAFKA_BROKERS and
 *      KEYCLOAK_URL are given (what `npm test` and CI pass to each workspace);
 *      RALY_TEST_STACK=env|docker|native forces one way;
 *   2. testcontainers, when a Docker engine answers;
 *   3. the native stack of infra/ (started if needed, reused if running).
 * The answer is computed once per process.
 */
import { once } from 'node:events';
import { randomInt } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dockerEngineAnswers, startContainerStack } from './stack/containers';
import { endpointsFromEnvironment, nativeEndpoints, type StackEndpoints } from './stack/endpoints';
import { ensureTopics } from './stack/kafka';
import { ensureBucket } from './stack/s3';
import {
  listMails as listCaughtMails,
  waitForMail as waitForCaughtMail,
  type CaughtMail,
} from './mail-catcher';

export type TestStack = StackEndpoints;
export type { CaughtMail };

let resolved: Promise<TestStack> | undefined;

async function resolve(): Promise<TestStack> {
  const forced = process.env.RALY_TEST_STACK;
  if (forced !== 'docker' && forced !== 'native') {
    const fromEnvironment = endpointsFromEnvironment();
    if (fromEnvironment) return fromEnvironment;
    if (forced === 'env')
      throw new Error('RALY_TEST_STACK=env, but KAFKA_BROKERS and KEYCLOAK_URL are not both set');
  }
  if (forced === 'docker' || (forced !== 'native' && (await dockerEngineAnswers()))) {
    const stack = await startContainerStack();
    await ensureTopics(stack.kafkaBrokers);
    await ensureBucket(stack.s3.endpoint, stack.s3.bucket);
    return stack;
  }
  const { ensureStack } = await import('./stack/stack');
  await ensureStack();
  return nativeEndpoints();
}

export function resolveTestStack(): Promise<TestStack> {
  resolved ??= resolve().catch((error: unknown) => {
    resolved = undefined;
    throw error;
  });
  return resolved;
}

async function catcherUrl(): Promise<string> {
  return resolved
    ? (await resolved).smtpCatcherUrl
    : (process.env.SMTP_CATCHER_URL ?? nativeEndpoints().smtpCatcherUrl);
}

/** Mails the SMTP catcher holds, oldest first; only those addressed to `to` when given. */
export async function listMails(to?: string): Promise<CaughtMail[]> {
  return listCaughtMails(to, await catcherUrl());
}

/** Waits (default 15 s) for a mail to `to`, optionally one that matches. */
export async function waitForMail(
  to: string,
  options: { matching?: (mail: CaughtMail) => boolean; timeoutMs?: number } = {},
): Promise<CaughtMail> {
  return waitForCaughtMail(to, { ...options, catcherUrl: await catcherUrl() });
}

export {
  createKeycloakUser,
  decodeJwtClaims,
  identityServiceToken,
  loginClientId,
  passwordGrant,
  refreshGrant,
} from './keycloak-users';

/**
 * Where {@link freePort} picks from: below Linux's ephemeral range (32768–60999 by default,
 * /proc/sys/net/ipv4/ip_local_port_range), so no outgoing connection (to Kafka, Postgres,
 * Keycloak) can take a port between its pick and the listen of the server it is for, and
 * above the stack's fixed ports (docs/conventions.md) and the browser tests' 14000–14999.
 */
export const testPortRange = { first: 20_000, last: 31_999 } as const;

/** How long a port picked by {@link freePort} stays reserved for the picking process (ms). */
const PORT_RESERVATION_MS = 10 * 60_000;

/** Ports this process has handed out (each at most once). */
const handedOut = new Set<number>();

/** True when 127.0.0.1:`port` can be bound now. */
async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
  } catch {
    return false;
  }
  await new Promise((resolve) => server.close(resolve));
  return true;
}

/**
 * Reserves `port` across the processes of this machine for PORT_RESERVATION_MS: a file
 * created exclusively in the OS's temporary folder (a stale one is taken over). Test files
 * run in parallel processes; the reservation keeps two of them from starting servers on one
 * port picked at the same moment.
 * @returns true when this process holds the reservation now
 */
async function reserve(port: number): Promise<boolean> {
  const folder = path.join(tmpdir(), 'raly-test-ports');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, String(port));
  try {
    await writeFile(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    const held = await stat(file).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs < PORT_RESERVATION_MS) return false;
    await writeFile(file, String(process.pid));
    return true;
  }
}

/**
 * A TCP port on 127.0.0.1 that is free, reserved for this process for ten minutes and
 * outside the ephemeral range ({@link testPortRange}), for a server a test starts.
 * @returns the port
 * @throws Error when 200 random picks found none free
 */
export async function freePort(): Promise<number> {
  const size = testPortRange.last - testPortRange.first + 1;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = testPortRange.first + randomInt(size);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if ((await reserve(port)) && (await bindable(port))) return port;
  }
  throw new Error(`no free port in ${testPortRange.first}-${testPortRange.last} after 200 picks`);
}
