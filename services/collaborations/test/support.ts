/**
 * Helpers of the collaborations tests only: the system (identity-profile,
 * brand, collaborations, optionally offers) with listeners on both
 * collaboration topics, accepted application snapshots published as offers
 * would, and calls to the collaborations service as a user.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { eventTypes, topics } from '@raly/contracts/events';
import type { ApplicationRecord } from '@raly/contracts/offers';
import { afterAll, beforeAll } from 'vitest';
import {
  anEnvelope,
  callApi,
  envelopeOf,
  connectTestKafka,
  eventually,
  listenToTopic,
  testKeycloak,
  type TestKeycloak,
  type TopicListener,
  uniqueToken,
} from '@raly/test-support';
import { type RalySystem, startSystem } from '@raly/test-support/system';

/** What {@link useCollaborationsSystem} fills in before the file's tests run. */
export interface CollaborationsHarness {
  system: RalySystem;
  /** Everything published on `collaborations.collaboration.v1`. */
  collaborationEvents: TopicListener;
  /** Everything published on `collaborations.message.v1`. */
  messageEvents: TopicListener;
}

/**
 * Registers the hooks that start identity-profile, brand, collaborations (with `env` added to its
 * environment; and offers or media when asked) for one test file, with listeners on both collaboration topics, and stop them, deleting the
 * Keycloak users the file registered.
 */
export function useCollaborationsSystem(
  options: { offers?: boolean; media?: boolean; env?: Record<string, string> } = {},
): CollaborationsHarness {
  const harness = {} as CollaborationsHarness;
  let keycloak: TestKeycloak | undefined;
  beforeAll(async () => {
    harness.system = await startSystem({
      offers: options.offers,
      media: options.media,
      collaborations: true,
      env: { collaborations: options.env ?? {} },
    });
    keycloak = testKeycloak(harness.system.stack);
    const brokers = harness.system.stack.kafkaBrokers;
    [harness.collaborationEvents, harness.messageEvents] = await Promise.all([
      listenToTopic(brokers, topics.collaborationsCollaboration),
      listenToTopic(brokers, topics.collaborationsMessage),
    ]);
  });
  afterAll(async () => {
    await harness.collaborationEvents?.stop();
    await harness.messageEvents?.stop();
    await harness.system?.stop();
    await keycloak?.cleanUp();
  });
  return harness;
}

/** The two parties of a collaboration: a creator's and a brand's ids. */
export interface Parties {
  creator: { userId: string };
  brand: { brandId: string };
}

/**
 * An application snapshot as offers publishes it, accepted, between `parties`, with its offer's
 * terms; `overrides` win.
 */
export function anAcceptedApplication(
  parties: Parties,
  overrides: Partial<ApplicationRecord> = {},
): ApplicationRecord {
  const token = uniqueToken(8);
  const offerId = randomUUID();
  return {
    id: randomUUID(),
    version: 2,
    offerId,
    brandId: parties.brand.brandId,
    creatorId: parties.creator.userId,
    offer: {
      id: offerId,
      title: `Launch video ${token}`,
      brand: {
        id: parties.brand.brandId,
        username: `brand${token}`,
        company: `Acme ${token}`,
        profileImg: '',
        isVerified: false,
      },
      deliverables: 'One video and two posts.',
      compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
    },
    creator: {
      id: parties.creator.userId,
      username: `creator${token}`,
      profileImg: '',
      coverImg: '',
      interests: ['AI'],
      socials: { x: '', instagram: '', threads: '' },
    },
    pitch: 'I film daily tech videos for forty thousand people.',
    proposedRate: { amountMinor: 40_000, currency: 'EUR' },
    status: 'accepted',
    created: new Date().toISOString(),
    decidedAt: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * Publishes application snapshots on `offers.application.v1` as offers would (key = its id), in
 * order, and waits until the collaborations service has handled each (its group committed past it).
 */
export async function publishApplications(
  system: RalySystem,
  ...applications: ApplicationRecord[]
): Promise<void> {
  const kafka = await connectTestKafka(system.stack.kafkaBrokers);
  try {
    const positions = [];
    for (const application of applications) {
      const type =
        application.status === 'pending'
          ? eventTypes.applicationCreated
          : eventTypes.applicationUpdated;
      positions.push(
        await kafka.produce(
          topics.offersApplication,
          application.id,
          JSON.stringify(anEnvelope(application, type)),
        ),
      );
    }
    const groupId = system.services.collaborations!.env.KAFKA_GROUP_ID!;
    for (const position of positions)
      await kafka.waitUntilCommitted(groupId, topics.offersApplication, position);
  } finally {
    await kafka.close();
  }
}

/** The ids of the collaborations stored for an application (direct SQL). */
export async function collaborationIdsOf(system: RalySystem, applicationId: string) {
  const { rows } = await system.sql.collaborations!.query<{ id: string }>(
    'SELECT id FROM collaborations WHERE application_id = $1',
    [applicationId],
  );
  return rows.map((row) => row.id);
}

/** Waits until the application's collaboration is stored. @returns its id */
export async function collaborationOf(system: RalySystem, applicationId: string): Promise<string> {
  return eventually(`the collaboration of application ${applicationId}`, async () => {
    const [id] = await collaborationIdsOf(system, applicationId);
    return id;
  });
}

/** Calls the collaborations service as the holder of `token` (none: a visitor). */
export const asUser =
  (system: RalySystem, token?: string) =>
  <Data = unknown>(method: string, path: string, body?: unknown) =>
    callApi<Data>(system.collaborationsUrl, method, path, { token, body });

/**
 * Opens a collaboration between `parties` (an accepted application published on Kafka) and
 * answers it as its creator reads it.
 */
export async function openedCollaboration(
  system: RalySystem,
  parties: Parties & { creator: { accessToken: string } },
  overrides: Partial<ApplicationRecord> = {},
): Promise<CollaborationRecord> {
  const application = anAcceptedApplication(parties, overrides);
  await publishApplications(system, application);
  const [id] = await collaborationIdsOf(system, application.id);
  assert.ok(id, 'no collaboration opened');
  const answer = await asUser(system, parties.creator.accessToken)<CollaborationRecord>(
    'GET',
    `/collaborations/${id}`,
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data!;
}

/** A message form with a fresh client id. */
export const aMessage = (body = `Hello, when can we start? ${uniqueToken(6)}`) => ({
  clientId: randomUUID(),
  body,
});

/** Waits for the collaboration's snapshot of `version` on `collaborations.collaboration.v1`. */
export async function publishedCollaboration(
  harness: CollaborationsHarness,
  record: Pick<CollaborationRecord, 'id' | 'version'>,
) {
  return envelopeOf<CollaborationRecord>(
    await harness.collaborationEvents.waitFor(
      (message) =>
        message.key?.toString() === record.id && envelopeOf(message).version === record.version,
    ),
  );
}
