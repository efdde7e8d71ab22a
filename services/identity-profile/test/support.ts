/**
 * The identity-profile harness of this workspace's tests: the service started
 * in-process (`@raly/test-support/system` startService) on a fresh database
 * with this file's settings (reset links, API key, code lifetime, no image
 * consumer), a listener on `identity.user.v1`, and calls with the service
 * token. Keycloak users the tests create or register are deleted at the end.
 */
import { afterAll, beforeAll } from 'vitest';
import type pg from 'pg';
import {
  callApi,
  listenToTopic,
  passwordGrant,
  rememberEmail,
  testKeycloak,
  serviceTokenOf,
  testStack,
  uniqueToken,
  type ApiBody,
  type ServiceTokenGetter,
  type TestDatabase,
  type TestKeycloak,
  type TestStack,
  type TopicListener,
} from '@raly/test-support';
import {
  registeredCreator as registerCreatorAt,
  startService,
  testWebUrl,
  type RunningService,
} from '@raly/test-support/system';
import { topics } from '@raly/contracts/events';
import { createEventWriter, createPgEventWriter } from '@raly/service-kit/outbox';
import { openIdentityDatabase, type IdentityDatabase } from '../src/data-access/database';
import { keycloakUsers, type KeycloakUsers } from '../src/data-access/keycloak-users';
import { userRepository, type UserRepository } from '../src/data-access/user-repository';
import { newBrandUser } from '../src/domain/accounts';
import { userCreatedEvent } from '../src/domain/events';

export { creatorRegistration, envelopeOf } from '@raly/test-support';
export { testWebUrl };

export interface Harness {
  baseUrl: string;
  stack: TestStack;
  database: TestDatabase;
  /** Direct SQL on the test database (arranging failures, checking rows). */
  sql: pg.Pool;
  /** The service's own Keycloak Admin API client (users it creates are deleted at the end). */
  keycloak: KeycloakUsers;
  /** Test users and sign-in checks (`signsIn`, `refreshWorks`). */
  users: TestKeycloak;
  /** Messages of `identity.user.v1` since the run started. */
  userEvents: TopicListener;
  /** The BFF's service token (client credentials of raly-bff-service); {@link call} sends it as the BFF does. */
  serviceToken: ServiceTokenGetter;
}

/** What the service under test is configured with (API key, code lifetime). */
export const testApiKey = `test-api-key-${uniqueToken(6)}`;
export const testResetCodeTtlSeconds = 1800;

/**
 * Starts the service for this test file; stops it and cleans up after.
 * @param settings read when it starts: its port and environment added (e.g. BRAND_URL)
 */
export function useIdentityService(
  settings: () => { port?: number; env?: Record<string, string> } = () => ({}),
): Harness {
  const harness = {} as Harness;
  let service: RunningService | undefined;
  beforeAll(async () => {
    harness.stack = await testStack();
    harness.serviceToken = serviceTokenOf(harness.stack, 'bff');
    harness.users = testKeycloak(harness.stack);
    const users = keycloakUsers({
      url: harness.stack.keycloakUrl,
      realm: harness.stack.realm,
      clientId: 'raly-identity',
      clientSecret: harness.stack.identityClientSecret,
    });
    harness.keycloak = {
      ...users,
      async create(user) {
        rememberEmail(user.email);
        return users.create(user);
      },
    };
    harness.userEvents = await listenToTopic(harness.stack.kafkaBrokers, 'identity.user.v1');
    const { port, env } = settings();
    service = await startService('identity-profile', {
      stack: harness.stack,
      port,
      env: {
        ...env,
        PUBLIC_API_KEY: testApiKey,
        RESET_CODE_TTL_SECONDS: String(testResetCodeTtlSeconds),
        // No consumer: other runs on the shared stack publish image events (default pictures)
        // that would change these tests' records; tests/brand-registration.test.ts runs it.
        KAFKA_CONSUME: 'false',
      },
    });
    harness.baseUrl = service.url;
    harness.database = service.database;
    harness.sql = service.sql;
  });
  afterAll(async () => {
    await service?.stop();
    await harness.userEvents?.stop();
    await harness.users?.cleanUp();
  });
  return harness;
}

/** An answer of {@link call}. */
export interface Answer<T = unknown> {
  status: number;
  body: ApiBody<T>;
}

/** Calls the service with the BFF's service token (as the BFF does); JSON in, JSON out. */
export function call<T = unknown>(
  harness: Harness,
  method: string,
  urlPath: string,
  body?: unknown,
  accessToken?: string,
): Promise<Answer<T>> {
  return callApi<T>(harness.baseUrl, method, urlPath, {
    body,
    token: accessToken,
    serviceToken: harness.serviceToken,
  });
}

/**
 * Calls an internal route as brand does (its service token): the username
 * registry (`/usernames/*`) is brand's alone.
 */
export function callAsBrand<T = unknown>(
  harness: Harness,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<Answer<T>> {
  return callApi<T>(harness.baseUrl, method, urlPath, {
    body,
    serviceToken: serviceTokenOf(harness.stack, 'brand'),
  });
}

/** Registers a creator and signs them in. */
export const registeredCreator = (harness: Harness) =>
  registerCreatorAt({ identityUrl: harness.baseUrl, ...harness });

/**
 * The user repository over a database of the test's own (data a test sets up
 * without the API). Nothing to wake: the running service's relay finds the
 * rows at its next poll.
 */
export const usersOf = (database: IdentityDatabase): UserRepository =>
  userRepository(
    database.prisma,
    createEventWriter({ prisma: database.prisma, relay: { wake: () => undefined } }),
    {
      pool: database.pool,
      events: createPgEventWriter({ pool: database.pool, relay: { wake: () => undefined } }),
    },
  );

/** A brand's user: a Keycloak user and a brand-side record (brand registration itself is tested elsewhere). */
export async function registeredBrandUser(harness: Harness) {
  const token = uniqueToken(10);
  const email = `brand-user-${token}@raly.test`;
  const password = `pw-${token}`;
  rememberEmail(email);
  const userId = await harness.keycloak.create({ email, password });
  const database = openIdentityDatabase(harness.database.url);
  try {
    await usersOf(database).insertWithEvent(
      newBrandUser({
        id: userId,
        email,
        firstName: 'Bea',
        lastName: 'Brand',
        brandId: `brand-${token}`,
      }),
      userCreatedEvent,
    );
  } finally {
    await database.close();
  }
  const tokens = await passwordGrant(harness.stack, email, password);
  return { userId, email, password, accessToken: tokens.access_token };
}

/** A staff member as the BFF names them in a staff command. */
export const staffMember = (name: string) => ({ userId: `${name}-id`, email: `${name}@raly.test` });

/**
 * A listener on `identity.audit.v1` for this test file: started before its tests, stopped after.
 * @returns a holder whose `events` is the listener once the tests run
 */
export function useAuditEvents(harness: Harness): { events: TopicListener } {
  const holder = {} as { events: TopicListener };
  beforeAll(async () => {
    holder.events = await listenToTopic(harness.stack.kafkaBrokers, topics.identityAudit);
  });
  afterAll(async () => {
    await holder.events?.stop();
  });
  return holder;
}
