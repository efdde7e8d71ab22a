/**
 * Runs identity-profile in-process on port 0 against the real test stack,
 * with a fresh migrated database per test file, and gives tests unique
 * registrations, HTTP calls and Keycloak look-ups. Keycloak users the tests
 * create are deleted at the end.
 */
import path from 'node:path';
import { after, before } from 'node:test';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import { passwordGrant, resolveTestStack, type TestStack } from '@raly/infra/test-env';
import {
  createTestDatabase,
  listenToTopic,
  uniqueToken,
  type TestDatabase,
  type TopicListener,
} from '@raly/service-kit/testing';
import pg from 'pg';
import { start, stop } from '../src/app';
import { openIdentityDatabase } from '../src/data-access/database';
import { keycloakUsers, type KeycloakUsers } from '../src/data-access/keycloak-users';
import { userRepository } from '../src/data-access/user-repository';
import { newBrandUser } from '../src/domain/accounts';
import { userCreatedEvent } from '../src/domain/events';

export interface Harness {
  baseUrl: string;
  stack: TestStack;
  database: TestDatabase;
  /** Direct SQL on the test database (arranging failures, checking rows). */
  sql: pg.Pool;
  keycloak: KeycloakUsers;
  /** Messages of `identity.user.v1` since the run started. */
  userEvents: TopicListener;
  /** The service's INTERNAL_SERVICE_TOKEN; {@link call} sends it as the BFF does. */
  serviceToken: string;
}

/** What the service under test is configured with (reset links, code lifetime). */
export const testWebUrl = 'http://localhost:15173';
export const testApiKey = `test-api-key-${uniqueToken(6)}`;
export const testResetCodeTtlSeconds = 1800;

/** Starts the service for this test file; stops it and cleans up after. */
export function useIdentityService(): Harness {
  const harness = {} as Harness;
  const createdEmails = new Set<string>();
  before(async () => {
    harness.stack = await resolveTestStack();
    harness.serviceToken = `test-service-token-${uniqueToken(12)}`;
    harness.database = await createTestDatabase(
      'raly_identity',
      path.join(import.meta.dirname, '..'),
    );
    harness.sql = new pg.Pool({ connectionString: harness.database.url });
    harness.keycloak = trackingKeycloak(harness.stack, createdEmails);
    harness.userEvents = await listenToTopic(harness.stack.kafkaBrokers, 'identity.user.v1');
    const { port } = await start({
      port: 0,
      env: {
        DATABASE_URL: harness.database.url,
        KAFKA_BROKERS: harness.stack.kafkaBrokers.join(','),
        KEYCLOAK_URL: harness.stack.keycloakUrl,
        KEYCLOAK_REALM: harness.stack.realm,
        KEYCLOAK_IDENTITY_CLIENT_SECRET: harness.stack.identityClientSecret,
        SMTP_URL: `smtp://${harness.stack.smtp.host}:${harness.stack.smtp.port}`,
        WEB_URL: testWebUrl,
        PUBLIC_API_KEY: testApiKey,
        RESET_CODE_TTL_SECONDS: String(testResetCodeTtlSeconds),
        INTERNAL_SERVICE_TOKEN: harness.serviceToken,
        // No consumer: other runs on the shared stack publish image events (default pictures)
        // that would change these tests' records; tests/brand-registration.test.ts runs it.
        KAFKA_CONSUME: 'false',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      },
    });
    harness.baseUrl = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    await stop();
    await harness.userEvents?.stop();
    for (const email of [...createdEmails, ...registeredEmails]) {
      const id = await harness.keycloak.findIdByEmail(email).catch(() => null);
      if (id) await harness.keycloak.delete(id);
    }
    await harness.sql?.end();
    await harness.database?.drop();
  });
  return harness;
}

const registeredEmails = new Set<string>();

function trackingKeycloak(stack: TestStack, createdEmails: Set<string>): KeycloakUsers {
  const users = keycloakUsers({
    url: stack.keycloakUrl,
    realm: stack.realm,
    clientId: 'raly-identity',
    clientSecret: stack.identityClientSecret,
  });
  return {
    ...users,
    async create(user) {
      createdEmails.add(user.email);
      return users.create(user);
    },
  };
}

/** A valid creator registration with unique values (remembered for clean-up). */
export function creatorRegistration(
  overrides: Partial<{ username: string; email: string; password: string }> = {},
) {
  const token = uniqueToken(10);
  const password = overrides.password ?? `pw-${token}`;
  const registration = {
    username: `u${token}`,
    email: `creator-${token}@raly.test`,
    confirmPassword: password,
    agreeTerms: true,
    ...overrides,
    password,
  };
  registeredEmails.add(registration.email.toLowerCase());
  return registration;
}

export interface Answer<T = unknown> {
  status: number;
  body: { data?: T; error?: { code: string; message: string; fields?: Record<string, string> } };
}

/** Calls the service with its service token (as the BFF does); JSON in, JSON out. */
export async function call<T = unknown>(
  harness: Harness,
  method: string,
  urlPath: string,
  body?: unknown,
  accessToken?: string,
): Promise<Answer<T>> {
  const response = await fetch(`${harness.baseUrl}${urlPath}`, {
    method,
    headers: {
      'content-type': 'application/json',
      [INTERNAL_TOKEN_HEADER]: harness.serviceToken,
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
}

/** Registers a creator and signs them in. */
export async function registeredCreator(harness: Harness) {
  const registration = creatorRegistration();
  const created = await call<{ userId: string }>(harness, 'POST', '/accounts', {
    isBrand: false,
    registration,
  });
  if (created.status !== 201 || !created.body.data)
    throw new Error(`registration failed: ${JSON.stringify(created.body)}`);
  const tokens = await passwordGrant(harness.stack, registration.email, registration.password);
  return { registration, userId: created.body.data.userId, accessToken: tokens.access_token };
}

/** A brand's user: a Keycloak user and a brand-side record (brand registration itself is tested elsewhere). */
export async function registeredBrandUser(harness: Harness) {
  const token = uniqueToken(10);
  const email = `brand-user-${token}@raly.test`;
  const password = `pw-${token}`;
  registeredEmails.add(email);
  const userId = await harness.keycloak.create({ email, password });
  const database = openIdentityDatabase(harness.database.url);
  try {
    await userRepository(database.prisma).insertWithEvent(
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

/** Tries a refresh grant with `raly-web`; true while Keycloak still accepts the refresh token. */
export async function refreshWorks(stack: TestStack, refreshToken: string): Promise<boolean> {
  const response = await fetch(
    `${stack.keycloakUrl}/realms/${stack.realm}/protocol/openid-connect/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'raly-web',
        refresh_token: refreshToken,
      }),
    },
  );
  return response.ok;
}

/** True when Keycloak accepts the e-mail and password. */
export async function signsIn(stack: TestStack, email: string, password: string): Promise<boolean> {
  return passwordGrant(stack, email, password).then(
    () => true,
    () => false,
  );
}

/** The envelope of a Kafka message value. */
export function envelopeOf(message: { value: Buffer | null }) {
  return JSON.parse(message.value?.toString() ?? '{}') as {
    type: string;
    subject: string;
    version: number;
    data: { id: string; version: number; username: string | null; email: string };
  };
}
