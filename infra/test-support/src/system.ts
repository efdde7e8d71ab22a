/**
 * The services started in-process for a test file, each on its own free port
 * against the real test stack, with a fresh migrated database, a fresh
 * consumer group (from the newest offset) and a test service token:
 * identity-profile, brand and (optionally) media, offers, collaborations, notifications and moderation, through each package's
 * public `./app` entry (`start({ port, env })` / `stop()`). Also registers
 * creators and brands through identity-profile. Used by the services', the
 * BFF's and the browser tests.
 */
import pg from 'pg';
import { loadServiceApp, type ServiceName } from './apps';
import { createTestDatabase, type TestDatabase } from './database';
import {
  brandRegistration,
  callApi,
  creatorRegistration,
  freePort,
  passwordGrant,
  serviceEnvironment,
  sleep,
  testStack,
  waitForMail,
  uniqueToken,
  type BrandRegistration,
  type CreatorRegistration,
  type TestStack,
} from '@raly/test-stack';
import { serviceTokensOf, type ServiceCaller, type ServiceTokenGetter } from './service-tokens';

export type { ServiceName };

/** The web origin identity-profile puts into reset links in tests (unless WEB_URL is given). */
export const testWebUrl = 'http://localhost:15173';

/** One service running in this process. */
export interface RunningService {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** The environment it was started with. */
  env: Record<string, string>;
  database: TestDatabase;
  /** Direct SQL on its test database (arranging failures, checking rows). */
  sql: pg.Pool;
  /** Stops the service only (to test its peers while it is down); startApp() brings it back. */
  stopApp(): Promise<void>;
  /** Starts it again on the same port with the same environment. */
  startApp(): Promise<void>;
  /** Stops it, ends the SQL pool and drops its database. */
  stop(): Promise<void>;
}

/**
 * Starts one service in-process on a fresh migrated database.
 * @param options port (default a free one), env added to and overriding the defaults
 *   (serviceEnvironment, DATABASE_URL, KAFKA_GROUP_ID, WEB_URL, LOG_LEVEL)
 */
export async function startService(
  name: ServiceName,
  options: { stack?: TestStack; port?: number; env?: Record<string, string> } = {},
): Promise<RunningService> {
  const stack = options.stack ?? (await testStack());
  const port = options.port ?? (await freePort());
  const database = await createTestDatabase(name);
  const env = {
    ...serviceEnvironment(stack),
    WEB_URL: testWebUrl,
    DATABASE_URL: database.url,
    KAFKA_GROUP_ID: `${name}-test-${uniqueToken(12)}`,
    ...options.env,
  };
  const app = await loadServiceApp(name);
  try {
    await app.start({ port, env });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const sql = new pg.Pool({ connectionString: database.url });
  // An idle connection Postgres ends must not crash the test process.
  sql.on('error', () => {});
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    env,
    database,
    sql,
    stopApp: () => app.stop(),
    startApp: async () => {
      await app.start({ port, env });
    },
    async stop() {
      await app.stop();
      await sql.end();
      await database.drop();
    },
  };
}

export interface RalySystem {
  stack: TestStack;
  identityUrl: string;
  brandUrl: string;
  /** Empty unless started with `media: true`. */
  mediaUrl: string;
  /** Empty unless started with `offers: true`. */
  offersUrl: string;
  /** Empty unless started with `collaborations: true`. */
  collaborationsUrl: string;
  /** Empty unless started with `notifications: true`. */
  notificationsUrl: string;
  /** Empty unless started with `moderation: true`. */
  moderationUrl: string;
  /**
   * The calling services' access tokens (client credentials of their realm clients), for
   * tests that call internal routes as that service, e.g. `serviceTokens.bff`.
   */
  serviceTokens: Record<ServiceCaller, ServiceTokenGetter>;
  /** The BFF's token getter, as `serviceTokens.bff`: the caller of identity-profile's /accounts. */
  serviceToken: ServiceTokenGetter;
  services: {
    identity: RunningService;
    brand: RunningService;
    media: RunningService | undefined;
    offers: RunningService | undefined;
    collaborations: RunningService | undefined;
    notifications: RunningService | undefined;
    moderation: RunningService | undefined;
  };
  /** Direct SQL on each service's test database (arranging failures, checking rows). */
  sql: {
    identity: pg.Pool;
    brand: pg.Pool;
    media: pg.Pool | undefined;
    offers: pg.Pool | undefined;
    collaborations: pg.Pool | undefined;
    notifications: pg.Pool | undefined;
    moderation: pg.Pool | undefined;
  };
  /** Stops every service and drops their databases. */
  stop(): Promise<void>;
}

/** What {@link startSystem} starts and with what. */
export interface SystemOptions {
  /** Start media too (default false). */
  media?: boolean;
  /** Start offers too (default false); it knows identity-profile's and brand's URLs. */
  offers?: boolean;
  /**
   * Start collaborations too (default false); it knows identity-profile's URL and opens
   * collaborations from offers' application events on Kafka, so a test of that flow starts both.
   */
  collaborations?: boolean;
  /**
   * Start notifications too (default false); it turns identity's, offers' and collaborations'
   * events on Kafka into inbox items.
   */
  notifications?: boolean;
  /** Start moderation too (default false); it keeps the audit entries of identity's and brand's audit topics. */
  moderation?: boolean;
  /** Host of media's public download URLs (default 127.0.0.1; `localhost` for a browser). */
  publicHost?: string;
  /** Environment added to every service's, then to one service's. */
  env?: Partial<Record<'common' | ServiceName, Record<string, string>>>;
}

/**
 * Starts identity-profile and brand (and media, offers, collaborations, notifications and moderation when asked), each
 * knowing the others' URLs.
 */
export async function startSystem(options: SystemOptions = {}): Promise<RalySystem> {
  const stack = await testStack();
  const ports = {
    identity: await freePort(),
    brand: await freePort(),
    media: options.media ? await freePort() : 0,
    offers: options.offers ? await freePort() : 0,
    collaborations: options.collaborations ? await freePort() : 0,
    notifications: options.notifications ? await freePort() : 0,
    moderation: options.moderation ? await freePort() : 0,
  };
  const serviceTokens = serviceTokensOf(stack);
  const common = {
    IDENTITY_URL: `http://127.0.0.1:${ports.identity}`,
    BRAND_URL: `http://127.0.0.1:${ports.brand}`,
    ...(options.offers ? { OFFERS_URL: `http://127.0.0.1:${ports.offers}` } : {}),
    ...(options.collaborations
      ? { COLLABORATIONS_URL: `http://127.0.0.1:${ports.collaborations}` }
      : {}),
    ...(options.notifications
      ? { NOTIFICATIONS_URL: `http://127.0.0.1:${ports.notifications}` }
      : {}),
    ...(options.moderation ? { MODERATION_URL: `http://127.0.0.1:${ports.moderation}` } : {}),
    ...options.env?.common,
  };
  const started: RunningService[] = [];
  const start = async (name: ServiceName, port: number, env: Record<string, string> = {}) => {
    const service = await startService(name, {
      stack,
      port,
      env: { ...common, ...env, ...options.env?.[name] },
    });
    started.push(service);
    return service;
  };
  // All at once: each waits on its own consumer, relay and database; none needs another to stop.
  const stop = async () => {
    await Promise.all(started.map((service) => service.stop()));
  };
  try {
    const identity = await start('identity-profile', ports.identity);
    const brand = await start('brand', ports.brand);
    const media = options.media
      ? await start('media', ports.media, {
          MEDIA_PUBLIC_URL: `http://${options.publicHost ?? '127.0.0.1'}:${ports.media}`,
        })
      : undefined;
    const offers = options.offers ? await start('offers', ports.offers) : undefined;
    const collaborations = options.collaborations
      ? await start('collaborations', ports.collaborations)
      : undefined;
    const notifications = options.notifications
      ? await start('notifications', ports.notifications)
      : undefined;
    const moderation = options.moderation ? await start('moderation', ports.moderation) : undefined;
    return {
      stack,
      identityUrl: identity.url,
      brandUrl: brand.url,
      mediaUrl: media?.url ?? '',
      offersUrl: offers?.url ?? '',
      collaborationsUrl: collaborations?.url ?? '',
      notificationsUrl: notifications?.url ?? '',
      moderationUrl: moderation?.url ?? '',
      serviceTokens,
      serviceToken: serviceTokens.bff,
      services: { identity, brand, media, offers, collaborations, notifications, moderation },
      sql: {
        identity: identity.sql,
        brand: brand.sql,
        media: media?.sql,
        offers: offers?.sql,
        collaborations: collaborations?.sql,
        notifications: notifications?.sql,
        moderation: moderation?.sql,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Where a user registers: identity-profile's URL, the BFF's service token and the stack (for sign-in). */
export interface IdentityTarget {
  identityUrl: string;
  serviceToken: string | ServiceTokenGetter;
  stack: TestStack;
}

/** Attempts of a registration answered 503 (the service's database busy for the moment). */
const REGISTRATION_ATTEMPTS = 3;

/**
 * POST /accounts as the BFF would, trying again (after 1 s, then 2 s) while it is answered
 * 503 `unavailable`, as a client of that answer should: a machine shared with the whole
 * stack can leave no connection free within a transaction's wait.
 * @throws Error with the answer's body when it is anything but 201 in the end
 */
async function register(
  target: IdentityTarget,
  command: { isBrand: boolean; registration: CreatorRegistration },
) {
  let created = await callApi<{ userId: string }>(target.identityUrl, 'POST', '/accounts', {
    serviceToken: target.serviceToken,
    body: command,
  });
  for (let attempt = 1; created.status === 503 && attempt < REGISTRATION_ATTEMPTS; attempt += 1) {
    await sleep(1000 * attempt);
    created = await callApi<{ userId: string }>(target.identityUrl, 'POST', '/accounts', {
      serviceToken: target.serviceToken,
      body: command,
    });
  }
  if (created.status !== 201 || !created.body.data)
    throw new Error(`registration failed: ${JSON.stringify(created.body)}`);
  const { registration } = command;
  const tokens = await passwordGrant(target.stack, registration.email, registration.password);
  return { userId: created.body.data.userId, accessToken: tokens.access_token };
}

/** Registers a creator through identity-profile (POST /accounts) and signs them in. */
export async function registeredCreator(
  target: IdentityTarget,
  overrides: Partial<CreatorRegistration> = {},
) {
  const registration = creatorRegistration(overrides);
  return { registration, ...(await register(target, { isBrand: false, registration })) };
}

/** Registers a brand through identity-profile and signs its admin in; answers the brand's id too. */
export async function registeredBrand(
  system: RalySystem,
  overrides: Partial<BrandRegistration> = {},
) {
  const registration = brandRegistration(overrides);
  const registered = await register(system, { isBrand: true, registration });
  const { rows } = await system.sql.identity.query<{ brand_id: string }>(
    'SELECT brand_id FROM users WHERE id = $1',
    [registered.userId],
  );
  return { registration, ...registered, brandId: rows[0]!.brand_id };
}

/**
 * The token of a brand invitation mailed to `email` (of the brand named
 * `company` when given), read from the SMTP catcher (the link's `token` query value).
 * @throws Error when no invitation mail arrives in time
 */
export async function invitationTokenFor(email: string, company?: string): Promise<string> {
  const mail = await waitForMail(email, {
    matching: (caught) =>
      caught.text.includes('/join/team?') && (!company || caught.subject.includes(company)),
  });
  const link = /https?:\/\/\S+\/join\/team\?\S+/.exec(mail.text)?.[0];
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no invitation link in the mail to ${email}`);
  return token;
}
