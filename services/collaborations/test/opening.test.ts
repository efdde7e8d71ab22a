/**
 * Opening: an application the brand accepts in offers opens one
 * collaboration, published on `collaborations.collaboration.v1`, with the
 * terms frozen from the application's snapshot; pending, declined and
 * withdrawn applications open nothing; a redelivered or later snapshot of
 * an accepted application opens nothing twice.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { eventTypes } from '@raly/contracts/events';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { dataOf, envelopeOf, uniqueToken } from '@raly/test-support';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import {
  anAcceptedApplication,
  asUser,
  collaborationIdsOf,
  collaborationOf,
  publishApplications,
  useCollaborationsSystem,
} from './support';

const harness = useCollaborationsSystem({ offers: true });
let system: RalySystem;
let brand: Awaited<ReturnType<typeof registeredBrand>>;
let creator: Awaited<ReturnType<typeof registeredCreator>>;

/** A registered creator who finished onboarding (interests, terms, connects, wallet). */
async function onboardedCreator() {
  const registered = await registeredCreator(system);
  const token = registered.accessToken;
  await dataOf(system.identityUrl, 'PUT', '/users/me/interests', {
    token,
    body: { interests: ['AI'] },
  });
  for (const step of ['terms', 'connects', 'wallet'])
    await dataOf(system.identityUrl, 'PATCH', '/users/me/onboarding', {
      token,
      body: { step, value: true },
    });
  return registered;
}

beforeAll(async () => {
  system = harness.system;
  [brand, creator] = await Promise.all([registeredBrand(system), onboardedCreator()]);
});

const offersAs =
  (token: string) =>
  <Data>(method: string, path: string, body?: unknown) =>
    dataOf<Data>(system.offersUrl, method, path, { token, body });

describe('opening a collaboration', () => {
  test('when a brand accepts an application in offers, then one collaboration opens with the frozen terms, both parties list it first and it is published', async () => {
    // Arrange
    const offer = await offersAs(brand.accessToken)<OfferRecord>('POST', '/offers', {
      title: `Launch video ${uniqueToken(6)}`,
      brief: 'Film a sixty second video showing how you use our app every morning.',
      interests: ['AI'],
      platforms: ['x'],
      deliverables: 'One video and two posts.',
      compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
      creatorsWanted: 2,
      applyBy: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      open: true,
    });
    const application = await offersAs(creator.accessToken)<ApplicationRecord>(
      'POST',
      `/offers/${offer.id}/applications`,
      {
        pitch: 'I film daily tech videos for forty thousand people.',
        proposedRate: { amountMinor: 40_000, currency: 'EUR' },
      },
    );

    // Act
    const accepted = await offersAs(brand.accessToken)<ApplicationRecord>(
      'POST',
      `/applications/${application.id}/accept`,
    );

    // Assert
    const id = await collaborationOf(system, application.id);
    const answer = await asUser(system, creator.accessToken)<CollaborationRecord>(
      'GET',
      `/collaborations/${id}`,
    );
    assert.equal(answer.status, 200);
    const collaboration = answer.body.data!;
    assert.deepEqual(
      {
        ...collaboration,
        deliverables: collaboration.deliverables.map(({ id, ...deliverable }) => ({
          ...deliverable,
          id: typeof id,
        })),
        timeline: collaboration.timeline.map(({ at, ...entry }) => ({ ...entry, at: typeof at })),
        created: typeof collaboration.created,
        updated: typeof collaboration.updated,
      },
      {
        id,
        version: 1,
        applicationId: application.id,
        offerId: offer.id,
        brandId: brand.brandId,
        creatorId: creator.userId,
        offer: { id: offer.id, title: offer.title },
        brand: offer.brand,
        creator: {
          id: creator.userId,
          username: accepted.creator.username,
          profileImg: accepted.creator.profileImg,
        },
        terms: {
          deliverables: 'One video and two posts.',
          compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
          agreedRate: { amountMinor: 40_000, currency: 'EUR' },
        },
        status: 'active',
        messageCount: 0,
        lastMessageAt: null,
        unread: { brand: 0, creator: 0 },
        seenSequence: { brand: 0, creator: 0 },
        // One deliverable per line of the offer's deliverables; the accepted rate is what is due.
        deliverables: [
          {
            id: 'string',
            title: 'One video and two posts.',
            dueAt: null,
            status: 'pending',
            changeRequests: 0,
            reviewDueAt: null,
            submissions: [],
            reviews: [],
          },
        ],
        payment: {
          status: 'not_due',
          amount: { amountMinor: 40_000, currency: 'EUR' },
          reference: null,
          dueAt: null,
          paidAt: null,
          confirmedAt: null,
          overdue: false,
        },
        cancellation: null,
        timeline: [{ kind: 'opened', at: 'string', party: null, deliverableId: null }],
        // Neither side has reviewed: reviews open once the collaboration completes.
        reviews: { brand: null, creator: null },
        created: 'string',
        updated: 'string',
      },
    );
    const event = envelopeOf<CollaborationRecord>(
      await harness.collaborationEvents.waitFor((message) => message.key?.toString() === id),
    );
    assert.equal(event.type, eventTypes.collaborationOpened);
    assert.equal(event.version, 1);
    assert.deepEqual(event.data, collaboration);
    for (const token of [creator.accessToken, brand.accessToken]) {
      const list = await asUser(system, token)<CollaborationRecord[]>('GET', '/collaborations');
      assert.equal(list.status, 200);
      // Newest activity first: a retry of this test opens a newer one, listed before.
      assert.equal(list.body.data![0]?.id, id);
    }
  });

  test('when applications are pending, declined or withdrawn, then no collaboration opens', async () => {
    // Arrange
    const parties = { creator, brand };
    const applications = (['pending', 'declined', 'withdrawn'] as const).map((status) =>
      anAcceptedApplication(parties, { status, version: status === 'pending' ? 1 : 2 }),
    );

    // Act
    await publishApplications(system, ...applications);

    // Assert
    for (const application of applications)
      assert.deepEqual(await collaborationIdsOf(system, application.id), [], application.status);
  });

  test('when an accepted application is delivered twice, then a later snapshot of it, then one collaboration opens and one event is recorded', async () => {
    // Arrange
    const accepted = anAcceptedApplication({ creator, brand });
    const later = { ...accepted, version: 3, pitch: 'A later snapshot of the same application.' };

    // Act
    await publishApplications(system, accepted, accepted, later);

    // Assert
    const ids = await collaborationIdsOf(system, accepted.id);
    assert.equal(ids.length, 1);
    const { rows } = await system.sql.collaborations!.query<{ event_type: string }>(
      'SELECT event_type FROM outbox WHERE key = $1',
      [ids[0]],
    );
    assert.deepEqual(
      rows.map((row) => row.event_type),
      [eventTypes.collaborationOpened],
    );
  });

  test('when an accepted application’s snapshot does not carry its offer’s terms, then the collaboration opens with no terms', async () => {
    // Arrange
    const application = anAcceptedApplication({ creator, brand });
    const offer = { ...application.offer };
    delete offer.deliverables;
    delete offer.compensation;

    // Act
    await publishApplications(system, { ...application, offer });

    // Assert
    const [id] = await collaborationIdsOf(system, application.id);
    const answer = await asUser(system, brand.accessToken)<CollaborationRecord>(
      'GET',
      `/collaborations/${id}`,
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data!.terms, null);
    assert.equal(answer.body.data!.offer.title, application.offer.title);
  });
});
