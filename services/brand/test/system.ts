/**
 * Test harness for the services that work together on brands and images:
 * identity-profile, brand and (optionally) media, each started in-process
 * on its own free port against the real test stack, with fresh migrated
 * databases, fresh consumer groups and a test service token. Also makes
 * registrations with unique values and deletes their Keycloak users after.
 * Used by the brand, media and BFF tests.
 */
import { createServer } from 'node:net';
import path from 'node:path';
import { passwordGrant, resolveTestStack, type TestStack } from '@raly/infra/test-env';
import { createTestDatabase, uniqueToken, type TestDatabase } from '@raly/service-kit/testing';
import pg from 'pg';
import * as brandApp from '../src/app';
import * as identityApp from '../../identity-profile/src/app';
import { keycloakUsers } from '../../identity-profile/src/data-access/keycloak-users';
import * as mediaApp from '../../media/src/app';

const servicesDir = path.join(import.meta.dirname, '..', '..');

export interface RalySystem {
  stack: TestStack;
  identityUrl: string;
  brandUrl: string;
  /** Empty unless started with `media: true`. */
  mediaUrl: string;
  serviceToken: string;
  /** Direct SQL on each service's test database (arranging failures, checking rows). */
  sql: { identity: pg.Pool; brand: pg.Pool; media: pg.Pool | undefined };
  /** Environment the services were started with (to restart one). */
  env: {
    identity: Record<string, string>;
    brand: Record<string, string>;
    media: Record<string, string>;
  };
  ports: { identity: number; brand: number; media: number };
  stop(): Promise<void>;
}

/** A free TCP port (listen on 0, then close). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const registeredEmails = new Set<string>();

/** Starts identity-profile and brand (and media when asked). */
export async function startSystem(options: { media?: boolean } = {}): Promise<RalySystem> {
  const stack = await resolveTestStack();
  const databases: TestDatabase[] = [];
  const database = async (prefix: string, service: string) => {
    const created = await createTestDatabase(prefix, path.join(servicesDir, service));
    databases.push(created);
    return created.url;
  };
  const ports = {
    identity: await freePort(),
    brand: await freePort(),
    media: options.media ? await freePort() : 0,
  };
  const urls = {
    identity: `http://127.0.0.1:${ports.identity}`,
    brand: `http://127.0.0.1:${ports.brand}`,
    media: options.media ? `http://127.0.0.1:${ports.media}` : '',
  };
  const serviceToken = `test-service-token-${uniqueToken(12)}`;
  const common = {
    KAFKA_BROKERS: stack.kafkaBrokers.join(','),
    KAFKA_FROM_BEGINNING: 'false',
    KEYCLOAK_URL: stack.keycloakUrl,
    KEYCLOAK_REALM: stack.realm,
    INTERNAL_SERVICE_TOKEN: serviceToken,
    IDENTITY_URL: urls.identity,
    BRAND_URL: urls.brand,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  };
  const env = {
    identity: {
      ...common,
      DATABASE_URL: await database('raly_identity', 'identity-profile'),
      KAFKA_GROUP_ID: `identity-test-${uniqueToken(12)}`,
      KEYCLOAK_IDENTITY_CLIENT_SECRET: stack.identityClientSecret,
    },
    brand: {
      ...common,
      DATABASE_URL: await database('raly_brand', 'brand'),
      KAFKA_GROUP_ID: `brand-test-${uniqueToken(12)}`,
    },
    media: {
      ...common,
      DATABASE_URL: options.media ? await database('raly_media', 'media') : '',
      KAFKA_GROUP_ID: `media-test-${uniqueToken(12)}`,
      MEDIA_PUBLIC_URL: urls.media,
      S3_ENDPOINT: stack.s3.endpoint,
      S3_BUCKET: stack.s3.bucket,
      S3_REGION: stack.s3.region,
      S3_ACCESS_KEY_ID: stack.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: stack.s3.secretAccessKey,
    },
  };
  await identityApp.start({ port: ports.identity, env: env.identity });
  await brandApp.start({ port: ports.brand, env: env.brand });
  if (options.media) await mediaApp.start({ port: ports.media, env: env.media });
  const sql = {
    identity: new pg.Pool({ connectionString: env.identity.DATABASE_URL }),
    brand: new pg.Pool({ connectionString: env.brand.DATABASE_URL }),
    media: options.media ? new pg.Pool({ connectionString: env.media.DATABASE_URL }) : undefined,
  };
  return {
    stack,
    identityUrl: urls.identity,
    brandUrl: urls.brand,
    mediaUrl: urls.media,
    serviceToken,
    sql,
    env,
    ports,
    async stop() {
      await mediaApp.stop();
      await brandApp.stop();
      await identityApp.stop();
      await Promise.all([sql.identity.end(), sql.brand.end(), sql.media?.end()]);
      await deleteKeycloakUsers(stack);
      for (const created of databases) await created.drop();
    },
  };
}

async function deleteKeycloakUsers(stack: TestStack): Promise<void> {
  const users = keycloakUsers({
    url: stack.keycloakUrl,
    realm: stack.realm,
    clientId: 'raly-identity',
    clientSecret: stack.identityClientSecret,
  });
  for (const email of registeredEmails) {
    const id = await users.findIdByEmail(email).catch(() => null);
    if (id) await users.delete(id).catch(() => undefined);
  }
  registeredEmails.clear();
}

/** A valid brand registration with unique values (remembered for clean-up). */
export function brandRegistration(overrides: Record<string, string> = {}) {
  const token = uniqueToken(10);
  const password = `pw-${token}`;
  const registration = {
    username: `b${token}`,
    email: `brand-${token}@raly.test`,
    password,
    confirmPassword: password,
    agreeTerms: true,
    firstName: 'Ada',
    lastName: `Lovelace${token}`,
    company: `Acme ${token}`,
    website: `https://acme-${token}.example`,
    ...overrides,
  };
  registeredEmails.add(registration.email.toLowerCase());
  return registration;
}

/** A valid creator registration with unique values (remembered for clean-up). */
export function creatorRegistration(overrides: Record<string, string> = {}) {
  const token = uniqueToken(10);
  const password = `pw-${token}`;
  const registration = {
    username: `c${token}`,
    email: `creator-${token}@raly.test`,
    password,
    confirmPassword: password,
    agreeTerms: true,
    ...overrides,
  };
  registeredEmails.add(registration.email.toLowerCase());
  return registration;
}

export interface Answer<T = unknown> {
  status: number;
  body: { data?: T; error?: { code: string; message: string; fields?: Record<string, string> } };
}

/** JSON over HTTP to a service: optional bearer token and service token. */
export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { body?: unknown; token?: string; serviceToken?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.serviceToken) headers['x-raly-service-token'] = options.serviceToken;
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** Registers a brand through identity-profile and signs its admin in. */
export async function registeredBrand(system: RalySystem, overrides: Record<string, string> = {}) {
  const registration = brandRegistration(overrides);
  const created = await call<{ userId: string }>(system.identityUrl, 'POST', '/accounts', {
    serviceToken: system.serviceToken,
    body: { isBrand: true, registration },
  });
  if (created.status !== 201 || !created.body.data)
    throw new Error(`brand registration failed: ${JSON.stringify(created.body)}`);
  const userId = created.body.data.userId;
  const tokens = await passwordGrant(system.stack, registration.email, registration.password);
  const { rows } = await system.sql.identity.query<{ brand_id: string }>(
    'SELECT brand_id FROM users WHERE id = $1',
    [userId],
  );
  return { registration, userId, brandId: rows[0]!.brand_id, accessToken: tokens.access_token };
}

/** Registers a creator through identity-profile and signs them in. */
export async function registeredCreator(
  system: RalySystem,
  overrides: Record<string, string> = {},
) {
  const registration = creatorRegistration(overrides);
  const created = await call<{ userId: string }>(system.identityUrl, 'POST', '/accounts', {
    serviceToken: system.serviceToken,
    body: { isBrand: false, registration },
  });
  if (created.status !== 201 || !created.body.data)
    throw new Error(`creator registration failed: ${JSON.stringify(created.body)}`);
  const tokens = await passwordGrant(system.stack, registration.email, registration.password);
  return { registration, userId: created.body.data.userId, accessToken: tokens.access_token };
}

/** Polls `check` until it returns a value other than undefined (default 15 s). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
