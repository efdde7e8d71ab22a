/**
 * Helpers of the offers tests only: onboarded creators, valid offer and
 * application forms, and calls to the offers service as a user.
 */
import type { Interest } from '@raly/contracts/constants';
import { eventTypes, topics } from '@raly/contracts/events';
import type { CreateOffer } from '@raly/contracts/offers';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { afterAll, beforeAll } from 'vitest';
import {
  anEnvelope,
  callApi,
  connectTestKafka,
  dataOf,
  eventually,
  listenToTopic,
  testKeycloak,
  type TestKeycloak,
  type TopicListener,
  uniqueToken,
} from '@raly/test-support';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

/** What {@link useOffersSystem} fills in before the file's tests run. */
export interface OffersHarness {
  system: RalySystem;
  /** Everything published on `offers.offer.v1` since the system started. */
  offerEvents: TopicListener;
  /** Everything published on `offers.application.v1` since the system started. */
  applicationEvents: TopicListener;
}

/**
 * Registers the hooks that start identity-profile, brand and offers for one test file (the
 * deadline sweep hourly unless `offersEnv` says otherwise) with listeners on both offers topics,
 * and stop them, deleting the Keycloak users the file registered.
 * @param offersEnv environment added to offers' (e.g. `KAFKA_CONSUME: 'false'`)
 */
export function useOffersSystem(offersEnv: Record<string, string> = {}): OffersHarness {
  const harness = {} as OffersHarness;
  let keycloak: TestKeycloak | undefined;
  beforeAll(async () => {
    harness.system = await startSystem({
      offers: true,
      env: { offers: { OFFERS_DEADLINE_SWEEP_MS: '3600000', ...offersEnv } },
    });
    keycloak = testKeycloak(harness.system.stack);
    const brokers = harness.system.stack.kafkaBrokers;
    [harness.offerEvents, harness.applicationEvents] = await Promise.all([
      listenToTopic(brokers, topics.offersOffer),
      listenToTopic(brokers, topics.offersApplication),
    ]);
  });
  afterAll(async () => {
    await harness.offerEvents?.stop();
    await harness.applicationEvents?.stop();
    await harness.system?.stop();
    await keycloak?.cleanUp();
  });
  return harness;
}

/** An apply-by date `days` from now (ISO 8601). */
export const daysFromNow = (days: number): string =>
  new Date(Date.now() + days * 86_400_000).toISOString();

/** A valid offer form with a unique title; `overrides` win. */
export function anOfferForm(overrides: Partial<CreateOffer> = {}): CreateOffer {
  return {
    title: `Launch video ${uniqueToken(6)}`,
    brief: 'Film a sixty second video showing how you use our app every morning.',
    interests: ['AI'],
    platforms: ['x'],
    deliverables: 'One video and two posts.',
    compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
    creatorsWanted: 2,
    applyBy: daysFromNow(7),
    ...overrides,
  };
}

/** A valid application form. */
export const anApplicationForm = (
  pitch = 'I film daily tech videos for forty thousand people.',
) => ({
  pitch,
  proposedRate: { amountMinor: 40_000, currency: 'EUR' as const },
});

/** A registered creator who finished onboarding (interests, terms, connects, wallet). */
export async function onboardedCreator(system: RalySystem, interests: Interest[] = ['AI']) {
  const creator = await registeredCreator(system);
  const token = creator.accessToken;
  await dataOf(system.identityUrl, 'PUT', '/users/me/interests', { token, body: { interests } });
  for (const step of ['terms', 'connects', 'wallet'])
    await dataOf(system.identityUrl, 'PATCH', '/users/me/onboarding', {
      token,
      body: { step, value: true },
    });
  return creator;
}

/** A registered brand whose contact names are unique (to look for them where they must not be). */
export async function brandWithUniqueNames(system: RalySystem) {
  const token = uniqueToken(8);
  return registeredBrand(system, { firstName: `First${token}`, lastName: `Last${token}` });
}

/** Calls the offers service as the holder of `token` (none for public routes). */
export const asUser =
  (system: RalySystem, token?: string) =>
  <Data = unknown>(method: string, path: string, body?: unknown) =>
    callApi<Data>(system.offersUrl, method, path, { token, body });

/** Publishes a snapshot on its topic as its owner would (key = its id). */
async function publish(
  system: RalySystem,
  topic: string,
  record: { id: string; version: number },
  type: Parameters<typeof anEnvelope>[1],
) {
  const kafka = await connectTestKafka(system.stack.kafkaBrokers);
  try {
    await kafka.produce(topic, record.id, JSON.stringify(anEnvelope(record, type)));
  } finally {
    await kafka.close();
  }
}

/**
 * Suspends a brand where its owner keeps it (services/brand's table, version + 1) and publishes
 * the new snapshot on brand.brand.v1, as an operator's change would; waits until offers has it.
 */
export async function suspendBrand(
  system: RalySystem,
  brand: { brandId: string; accessToken: string },
) {
  await system.sql.brand.query(
    'UPDATE brands SET is_suspended = true, version = version + 1 WHERE id = $1',
    [brand.brandId],
  );
  const record = await dataOf<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
    token: brand.accessToken,
  });
  await publish(system, topics.brandBrand, record, eventTypes.brandUpdated);
  await eventually('the suspended brand in offers', async () => {
    const { rows } = await system.sql.offers!.query(
      'SELECT is_suspended FROM brands WHERE id = $1',
      [brand.brandId],
    );
    return rows[0]?.is_suspended === true;
  });
}

/**
 * Suspends a user where identity-profile keeps it (version + 1) and publishes the new snapshot on
 * identity.user.v1; waits until offers has it.
 */
export async function suspendUser(
  system: RalySystem,
  user: { userId: string; accessToken: string },
) {
  await system.sql.identity.query(
    'UPDATE users SET is_suspended = true, version = version + 1 WHERE id = $1',
    [user.userId],
  );
  const record = await dataOf<UserRecord>(system.identityUrl, 'GET', '/users/me', {
    token: user.accessToken,
  });
  await publish(system, topics.identityUser, record, eventTypes.userUpdated);
  await eventually('the suspended user in offers', async () => {
    const { rows } = await system.sql.offers!.query(
      'SELECT is_suspended FROM users WHERE id = $1',
      [user.userId],
    );
    return rows[0]?.is_suspended === true;
  });
}
