/**
 * Live routing of offers and applications (docs/architecture.md
 * "Offer routing"): snapshots published on `offers.offer.v1` /
 * `offers.application.v1` reach, through the BFF's projector and the rooms
 * per interest, exactly the sockets that may see them — a draft only its
 * brand's members, an open offer also the onboarded creators of its
 * interests with offer notifications on (once per socket, however many of
 * its interests they share), an application its applicant and its brand's
 * members — and a change of a creator's record moves their open sockets'
 * rooms at once.
 *
 * "Receives nothing" is never a bare sleep: once a push that was emitted
 * after the one in question has reached the socket ({@link settle}), the
 * earlier one would have arrived first (one connection delivers in order).
 * Other test runs share Kafka and Redis, so sockets may also see their
 * offers: every assertion looks at this test's own ids only.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import type { Interest } from '@raly/contracts/constants';
import { eventTypes, topics, type EventType } from '@raly/contracts/events';
import type { OfferRecord } from '@raly/contracts/offers';
import type { UserRecord } from '@raly/contracts/records';
import type { TokenSet } from '@raly/contracts/bff-api';
import type { RunningBff } from '../src/app';
import { anApplicationRecord, anOfferRecord, isolatedLive } from './support/offers';
import { connectLive, receivedOf, type RecordingSocket } from './support/sockets';
import {
  aUserRecord,
  anEnvelope,
  connectTestKafka,
  eventually,
  type TestKafka,
  testKeycloak,
  type TestKeycloak,
  testStack,
} from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';

const onboardedCreator = { terms: true, interests: true, connects: true, wallet: true };

/** A signed-in test user, their current user record (as the BFF knows it) and their open sockets. */
interface Participant {
  record: UserRecord;
  accessToken: string;
  sockets: RecordingSocket[];
}

let bff: RunningBff;
let kafka: TestKafka;
let keycloak: TestKeycloak;
const allSockets: RecordingSocket[] = [];

beforeAll(async () => {
  const stack = await testStack();
  bff = await startTestBff(stack, isolatedLive());
  kafka = await connectTestKafka(stack.kafkaBrokers);
  keycloak = testKeycloak(stack);
});

afterAll(async () => {
  for (const { socket } of allSockets) socket.close();
  await bff?.stop();
  await kafka?.close();
  await keycloak?.cleanUp();
});

/** Publishes a snapshot on `topic` and waits until this BFF's projector has handled it. */
async function publish(
  topic: string,
  type: EventType,
  record: { id: string; version: number },
): Promise<void> {
  const position = await kafka.produce(topic, record.id, JSON.stringify(anEnvelope(record, type)));
  await kafka.waitUntilCommitted(bff.config.KAFKA_GROUP_ID, topic, position);
}

const publishUser = (record: UserRecord) =>
  publish(topics.identityUser, eventTypes.userUpdated, record);
const publishOffer = (offer: OfferRecord) =>
  publish(topics.offersOffer, eventTypes.offerUpdated, offer);

/**
 * A Keycloak user whose record (published and projected before they connect) is
 * `overrides` on an onboarded creator with offer notifications on, with `socketCount` sockets open.
 */
async function participant(overrides: Partial<UserRecord>, socketCount = 1): Promise<Participant> {
  const user = await keycloak.createUser();
  const record = aUserRecord({
    id: user.id,
    email: user.email,
    onboarding: onboardedCreator,
    notifications: { offers: true, marketing: false },
    ...overrides,
  });
  await publishUser(record);
  const signIn = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
    body: { email: user.email, password: user.password },
  });
  assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  const accessToken = signIn.body.data.accessToken;
  const sockets: RecordingSocket[] = [];
  for (let index = 0; index < socketCount; index += 1) {
    const socket = await connectLive(bff, accessToken);
    allSockets.push(socket);
    sockets.push(socket);
  }
  return { record, accessToken, sockets };
}

/** A brand member of `brandId` (a brand user record with finished onboarding). */
const brandMember = (brandId: string) =>
  participant({
    username: null,
    brand: { id: brandId, isAdmin: true },
    onboarding: { terms: true, brand: true },
    interests: [],
    notifications: { offers: false, marketing: false },
  });

/**
 * Publishes the next version of the participant's record with `changes` and
 * waits until every one of their sockets has received it: every push emitted
 * before it has reached those sockets by then, and their rooms follow `changes`.
 */
async function changeRecord(who: Participant, changes: Partial<UserRecord> = {}): Promise<void> {
  who.record = { ...who.record, ...changes, version: who.record.version + 1 };
  await publishUser(who.record);
  const version = who.record.version;
  for (const [index, socket] of who.sockets.entries()) {
    await eventually(`socket ${index} of ${who.record.id} to receive version ${version}`, () =>
      receivedOf(socket, 'user.updated').some(
        (record) => record.id === who.record.id && record.version === version,
      ),
    );
  }
}

/** Waits until everything emitted so far has reached `who`'s sockets (an unchanged record's next version). */
const settle = (who: Participant) => changeRecord(who);

/** The versions of one offer a socket received, in order. */
const offerVersions = (socket: RecordingSocket, offerId: string) =>
  receivedOf(socket, 'offer.updated')
    .filter((offer) => offer.id === offerId)
    .map((offer) => offer.version);

const waitForOffer = (socket: RecordingSocket, offerId: string, version = 1) =>
  eventually(`offer ${offerId} v${version}`, () =>
    offerVersions(socket, offerId).includes(version),
  );

const interests = (...list: Interest[]) => list;

describe('offers pushed live (rooms per interest)', () => {
  test("when a brand publishes an open offer of two interests, then each of a creator's two sockets in both rooms receives offer.updated once, and the brand member's socket receives it", async () => {
    // Arrange
    const offer = anOfferRecord({ interests: interests('Gaming', 'Sports') });
    const member = await brandMember(offer.brandId);
    const creator = await participant({ interests: interests('Sports', 'Gaming', 'AI') }, 2);

    // Act
    await publishOffer(offer);

    // Assert
    for (const socket of creator.sockets) await waitForOffer(socket, offer.id);
    await waitForOffer(member.sockets[0]!, offer.id);
    await settle(creator);
    await settle(member);
    for (const socket of creator.sockets) assert.deepEqual(offerVersions(socket, offer.id), [1]);
    assert.deepEqual(offerVersions(member.sockets[0]!, offer.id), [1]);
    assert.deepEqual(
      receivedOf(creator.sockets[0]!, 'offer.updated').find((pushed) => pushed.id === offer.id),
      offer,
    );
  });

  test('when an open offer is published, then creators of other interests, with offer notifications off, not onboarded, and another brand\u2019s member receive nothing', async () => {
    // Arrange
    const offer = anOfferRecord({ interests: interests('Crypto') });
    const witness = await participant({ interests: interests('Crypto') });
    const otherInterests = await participant({ interests: interests('AI', 'Fashion') });
    const notificationsOff = await participant({
      interests: interests('Crypto'),
      notifications: { offers: false, marketing: true },
    });
    const notOnboarded = await participant({
      interests: interests('Crypto'),
      onboarding: { terms: true, interests: true, connects: false, wallet: false },
    });
    const otherBrandMember = await brandMember(anOfferRecord().brandId);

    // Act
    await publishOffer(offer);

    // Assert
    await waitForOffer(witness.sockets[0]!, offer.id);
    for (const who of [otherInterests, notificationsOff, notOnboarded, otherBrandMember]) {
      await settle(who);
      assert.deepEqual(offerVersions(who.sockets[0]!, offer.id), [], who.record.id);
    }
  });

  test('when a draft is published, then only its brand member receives it; when it is opened, then matching creators receive the open version only', async () => {
    // Arrange
    const draft = anOfferRecord({
      interests: interests('Business'),
      status: 'draft',
      openedAt: null,
    });
    const member = await brandMember(draft.brandId);
    const creator = await participant({ interests: interests('Business') });

    // Act
    await publishOffer(draft);
    await waitForOffer(member.sockets[0]!, draft.id, 1);
    const opened = {
      ...draft,
      version: 2,
      status: 'open' as const,
      openedAt: new Date().toISOString(),
    };
    await publishOffer(opened);

    // Assert
    await waitForOffer(creator.sockets[0]!, draft.id, 2);
    assert.deepEqual(offerVersions(creator.sockets[0]!, draft.id), [2]);
    await waitForOffer(member.sockets[0]!, draft.id, 2);
    assert.deepEqual(offerVersions(member.sockets[0]!, draft.id), [1, 2]);
  });

  test('when a creator turns offer notifications on, then their open socket receives the next matching offer; when they turn them off, then it receives no more', async () => {
    // Arrange
    const creator = await participant({
      interests: interests('Memecoins'),
      notifications: { offers: false, marketing: false },
    });
    const first = anOfferRecord({ interests: interests('Memecoins') });
    const second = anOfferRecord({ brandId: first.brandId, interests: interests('Memecoins') });
    const member = await brandMember(first.brandId);

    // Act: on
    await changeRecord(creator, { notifications: { offers: true, marketing: false } });
    await publishOffer(first);

    // Assert
    await waitForOffer(creator.sockets[0]!, first.id);

    // Act: off
    await changeRecord(creator, { notifications: { offers: false, marketing: false } });
    await publishOffer(second);

    // Assert
    await waitForOffer(member.sockets[0]!, second.id);
    await settle(creator);
    assert.deepEqual(offerVersions(creator.sockets[0]!, second.id), []);
  });

  test('when a creator changes their interests, then their open sockets leave the old interest rooms and join the new ones at once', async () => {
    // Arrange
    const creator = await participant({ interests: interests('Gambling') }, 2);
    const oldInterest = anOfferRecord({ interests: interests('Gambling') });
    const newInterest = anOfferRecord({
      brandId: oldInterest.brandId,
      interests: interests('Other'),
    });
    const member = await brandMember(oldInterest.brandId);

    // Act
    await changeRecord(creator, { interests: interests('Other') });
    await publishOffer(oldInterest);
    await waitForOffer(member.sockets[0]!, oldInterest.id);
    await publishOffer(newInterest);

    // Assert: the later offer arrived, the earlier one (emitted first) did not
    for (const socket of creator.sockets) {
      await waitForOffer(socket, newInterest.id);
      assert.deepEqual(offerVersions(socket, oldInterest.id), []);
    }
  });

  test('when a creator changes only private fields for some versions and then turns offer notifications off, then their sockets leave the interest rooms', async () => {
    // Arrange: versions that move no room (the BFF publishes no room move for them)
    const creator = await participant({ interests: interests('Gambling') }, 2);
    const offer = anOfferRecord({ interests: interests('Gambling') });
    const member = await brandMember(offer.brandId);
    await changeRecord(creator, { phoneNumber: '+15550000001' });
    await changeRecord(creator, { phoneNumber: '+15550000002' });

    // Act
    await changeRecord(creator, { notifications: { offers: false, marketing: false } });
    await publishOffer(offer);

    // Assert
    await waitForOffer(member.sockets[0]!, offer.id);
    await settle(creator);
    for (const socket of creator.sockets) assert.deepEqual(offerVersions(socket, offer.id), []);
  });

  test('when a creator becomes a brand user, then their sockets leave the interest rooms', async () => {
    // Arrange
    const creator = await participant({ interests: interests('NFTs') });
    const offer = anOfferRecord({ interests: interests('NFTs') });
    const member = await brandMember(offer.brandId);

    // Act
    await changeRecord(creator, {
      brand: { id: anOfferRecord().brandId, isAdmin: true },
      onboarding: { terms: true, brand: true },
    });
    await publishOffer(offer);

    // Assert
    await waitForOffer(member.sockets[0]!, offer.id);
    await settle(creator);
    assert.deepEqual(offerVersions(creator.sockets[0]!, offer.id), []);
  });
});

describe('applications pushed live', () => {
  test("when a creator's application is published, then it reaches the applicant's socket and the brand member's socket once and no other creator's; when it is accepted, then the applicant receives it as accepted", async () => {
    // Arrange
    const offer = anOfferRecord({ interests: interests('Fashion') });
    const member = await brandMember(offer.brandId);
    const applicant = await participant({ interests: interests('Fashion') });
    const otherCreator = await participant({ interests: interests('Fashion') });
    const application = anApplicationRecord(offer, applicant.record.id);
    const applicationsOf = (socket: RecordingSocket) =>
      receivedOf(socket, 'application.updated').filter((record) => record.id === application.id);

    // Act
    await publish(topics.offersApplication, eventTypes.applicationCreated, application);

    // Assert
    await eventually(
      'the application at the applicant',
      () => applicationsOf(applicant.sockets[0]!).length > 0,
    );
    await eventually(
      'the application at the brand member',
      () => applicationsOf(member.sockets[0]!).length > 0,
    );
    await settle(applicant);
    await settle(member);
    await settle(otherCreator);
    assert.deepEqual(applicationsOf(applicant.sockets[0]!), [application]);
    assert.deepEqual(applicationsOf(member.sockets[0]!), [application]);
    assert.deepEqual(applicationsOf(otherCreator.sockets[0]!), []);

    // Act: the brand accepts
    const accepted = {
      ...application,
      version: 2,
      status: 'accepted' as const,
      decidedAt: new Date().toISOString(),
    };
    await publish(topics.offersApplication, eventTypes.applicationUpdated, accepted);

    // Assert
    const decided = await eventually('the accepted application at the applicant', () =>
      applicationsOf(applicant.sockets[0]!).find((record) => record.version === 2),
    );
    assert.equal(decided.status, 'accepted');
  });
});
