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
import { createServer, type AddressInfo } from 'node:net';
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

/** @returns a TCP port on 127.0.0.1 that was free a moment ago (the OS's pick for port 0) */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
