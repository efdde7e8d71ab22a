/**
 * Offers, applications and public profiles through the BFF (issue 9), in
 * front of the real identity-profile, brand and offers services: every
 * route's happy path and refusals (the services' status and message pass
 * through), the command answers pushed live at once (a brand opens an offer
 * → the matching creator's sockets; an application → the applicant and the
 * brand member), the rate limits of applying and creating offers, and
 * privacy: no answer, socket event or error body of these routes carries
 * anyone's first name, last name or e-mail.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import type { Interest } from '@raly/contracts/constants';
import type { Me } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import type {
  ApplicationRecord,
  BrandOffer,
  CreateOffer,
  OfferDetail,
  OfferRecord,
  Page,
  PublicBrandProfile,
  PublicCreatorProfile,
} from '@raly/contracts/offers';
import type { RunningBff } from '../src/app';
import { isolatedLive } from './support/offers';
import { connectLive, receivedOf, type RecordingSocket } from './support/sockets';
import { eventually, testStack, uniqueToken } from '@raly/test-support';
import { type BffBody, callBff, startTestBff } from '@raly/test-support/bff';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

let system: RalySystem;
let bff: RunningBff;
/** A second replica of `bff`'s deployment: same read model, rooms and consumer group. */
let replica: RunningBff;
/** A BFF with tight apply and create-offer limits (2 per hour each). */
let tightBff: RunningBff;
const sockets: RecordingSocket[] = [];

/** Every e-mail, first name and last name of this file's users: none may show up where others can see it. */
const privateValues: string[] = [];
/** Every answer body and offer/application socket event of the routes under test, checked at the end. */
const seen: { what: string; body: unknown }[] = [];

beforeAll(async () => {
  system = await startSystem({ offers: true });
  const services = {
    IDENTITY_URL: system.identityUrl,
    BRAND_URL: system.brandUrl,
    OFFERS_URL: system.offersUrl,
  };
  const stack = await testStack();
  const deployment = isolatedLive();
  bff = await startTestBff(stack, { ...services, ...deployment });
  replica = await startTestBff(stack, {
    ...services,
    ...deployment,
    KAFKA_GROUP_ID: bff.config.KAFKA_GROUP_ID,
  });
  tightBff = await startTestBff(stack, {
    ...services,
    ...isolatedLive(),
    RATE_LIMIT_APPLY_PER_USER: { points: 2, durationSeconds: 3600 },
    RATE_LIMIT_CREATE_OFFER_PER_USER: { points: 2, durationSeconds: 3600 },
  });
});

afterAll(async () => {
  for (const { socket } of sockets) socket.close();
  await bff?.stop();
  await tightBff?.stop();
  await replica?.stop();
  await system?.stop();
});

/** A call to the BFF whose answer is kept for the privacy sweep. */
async function api<Data>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; on?: RunningBff } = {},
) {
  const answer = await callBff<Data>(options.on ?? bff, method, path, {
    token: options.token,
    body: options.body,
  });
  seen.push({ what: `${method} ${path} → ${answer.status}`, body: answer.body });
  return answer;
}

async function live(token: string, on: RunningBff = bff): Promise<RecordingSocket> {
  const socket = await connectLive(on, token);
  sockets.push(socket);
  return socket;
}

/** An apply-by date `days` from now (ISO 8601). */
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A valid offer form with a unique title; `overrides` win. */
const anOfferForm = (overrides: Partial<CreateOffer> = {}): CreateOffer => ({
  title: `Launch video ${uniqueToken(8)}`,
  brief: 'Film a sixty second video showing how you use our app every morning.',
  interests: ['Gaming'],
  platforms: ['x'],
  deliverables: 'One video and two posts.',
  compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
  creatorsWanted: 2,
  applyBy: daysFromNow(7),
  ...overrides,
});

const anApplicationForm = {
  pitch: 'I film daily gaming videos for forty thousand people who love them.',
  proposedRate: { amountMinor: 40_000, currency: 'EUR' as const },
};

interface TestCreator {
  userId: string;
  username: string;
  accessToken: string;
  record: Me['user'];
}

/** A registered creator who finished onboarding through the BFF, with these interests and offer notifications on. */
async function onboardedCreator(interests: Interest[]): Promise<TestCreator> {
  const creator = await registeredCreator(system);
  privateValues.push(creator.registration.email);
  const token = creator.accessToken;
  const saved = await callBff(bff, 'PUT', '/api/me/interests', { token, body: { interests } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  let record: Me['user'] | undefined;
  for (const step of ['terms', 'connects', 'wallet']) {
    const answer = await callBff<Me>(bff, 'POST', '/api/me/onboarding', { token, body: { step } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    record = answer.body.data.user;
  }
  return {
    userId: creator.userId,
    username: creator.registration.username.toLowerCase(),
    accessToken: token,
    record: record!,
  };
}

/** A registered brand whose contact's names are unique (to look for them where they must not be). */
async function aBrand() {
  const token = uniqueToken(8);
  const brand = await registeredBrand(system, {
    firstName: `First${token}`,
    lastName: `Last${token}`,
  });
  privateValues.push(
    brand.registration.email,
    brand.registration.firstName,
    brand.registration.lastName,
  );
  return brand;
}

/**
 * Changes the creator's marketing notifications through the BFF and waits until their
 * `socket` has the answered record: every push emitted before has reached it by then.
 */
async function settle(creator: TestCreator, socket: RecordingSocket): Promise<void> {
  const answer = await callBff<Me>(bff, 'PATCH', '/api/me', {
    token: creator.accessToken,
    body: {
      notifications: {
        offers: creator.record.notifications.offers,
        marketing: !creator.record.notifications.marketing,
      },
    },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  creator.record = answer.body.data.user;
  const version = creator.record.version;
  await eventually(`${creator.userId}'s own record v${version} on their socket`, () =>
    receivedOf(socket, 'user.updated').some((record) => record.version >= version),
  );
}

const offerPushes = (socket: RecordingSocket, offerId: string) =>
  receivedOf(socket, 'offer.updated').filter((offer) => offer.id === offerId);
const applicationPushes = (socket: RecordingSocket, applicationId: string) =>
  receivedOf(socket, 'application.updated').filter((record) => record.id === applicationId);

/** Creates an offer through the BFF as the brand (open at once unless `open` is false). */
async function anOffer(
  brand: { accessToken: string },
  overrides: Partial<CreateOffer> = {},
): Promise<OfferRecord> {
  const answer = await api<OfferRecord>('POST', '/api/offers', {
    token: brand.accessToken,
    body: { ...anOfferForm(), open: true, ...overrides },
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data;
}

describe('offers through the BFF, live', () => {
  test("when a brand saves a draft and then opens it, then the brand's socket gets both, the matching creator's two sockets get the open offer once each, and others get nothing", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming', 'Sports']);
    const otherInterests = await onboardedCreator(['AI']);
    const notificationsOff = await onboardedCreator(['Gaming']);
    const off = await callBff<Me>(bff, 'PATCH', '/api/me', {
      token: notificationsOff.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    notificationsOff.record = off.body.data.user;
    const brandSocket = await live(brand.accessToken);
    const creatorSockets = [await live(creator.accessToken), await live(creator.accessToken)];
    const otherSocket = await live(otherInterests.accessToken);
    const offSocket = await live(notificationsOff.accessToken);

    // Act: a draft
    const draft = await api<OfferRecord>('POST', '/api/offers', {
      token: brand.accessToken,
      body: anOfferForm({ interests: ['Gaming', 'Sports'] }),
    });

    // Assert
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    assert.equal(draft.body.data.status, 'draft');
    const offerId = draft.body.data.id;
    await eventually('the draft at the brand', () => offerPushes(brandSocket, offerId).length > 0);

    // Act: open it
    const opened = await api<OfferRecord>('POST', `/api/offers/${offerId}/open`, {
      token: brand.accessToken,
    });

    // Assert
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.equal(opened.body.data.status, 'open');
    for (const socket of creatorSockets)
      await eventually(
        'the open offer at the creator',
        () => offerPushes(socket, offerId).length > 0,
      );
    await settle(creator, creatorSockets[0]!);
    await settle(otherInterests, otherSocket);
    await settle(notificationsOff, offSocket);
    for (const socket of creatorSockets)
      assert.deepEqual(
        offerPushes(socket, offerId).map((offer) => offer.status),
        ['open'],
        'the open offer once, never the draft',
      );
    assert.deepEqual(offerPushes(otherSocket, offerId), []);
    assert.deepEqual(offerPushes(offSocket, offerId), []);
    assert.deepEqual(
      offerPushes(brandSocket, offerId).map((offer) => offer.status),
      ['draft', 'open'],
    );
    for (const socket of [brandSocket, ...creatorSockets])
      seen.push({
        what: 'socket events',
        body: socket.received.filter(([e]) => e !== 'user.updated'),
      });
  });

  test("when a creator turns offer notifications on through the BFF, then their open socket gets the brand's next offer", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Crypto']);
    const socket = await live(creator.accessToken);
    const off = await callBff<Me>(bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(off.status, 200);
    const muted = await anOffer(brand, { interests: ['Crypto'] });

    // Act
    const on = await callBff<Me>(bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: true, marketing: false } },
    });
    assert.equal(on.status, 200);
    creator.record = on.body.data.user;
    const heard = await anOffer(brand, { interests: ['Crypto'] });

    // Assert
    await eventually(
      'the offer after notifications on',
      () => offerPushes(socket, heard.id).length > 0,
    );
    assert.deepEqual(offerPushes(socket, muted.id), []);
  });
});

describe('offer routing across replicas', () => {
  test("when a creator's setting is saved on one replica, then their socket on another replica moves rooms: it gets the next offer opened there, and none after they turn offer notifications off", async () => {
    // Arrange: the creator's socket is on the replica; every command goes to `bff`
    const brand = await aBrand();
    const creator = await onboardedCreator(['Business']);
    const muted = await callBff<Me>(bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    const socket = await live(creator.accessToken, replica);
    const brandSocket = await live(brand.accessToken, replica);

    // Act: on, through the other replica
    const on = await callBff<Me>(bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: true, marketing: false } },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    creator.record = on.body.data.user;
    const heard = await anOffer(brand, { interests: ['Business'] });

    // Assert
    await eventually(
      'the offer on the other replica',
      () => offerPushes(socket, heard.id).length > 0,
    );

    // Act: off, through the other replica
    const off = await callBff<Me>(bff, 'PATCH', '/api/me', {
      token: creator.accessToken,
      body: { notifications: { offers: false, marketing: false } },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    creator.record = off.body.data.user;
    const unheard = await anOffer(brand, { interests: ['Business'] });

    // Assert
    await eventually(
      'the brand member gets it on the replica',
      () => offerPushes(brandSocket, unheard.id).length > 0,
    );
    await settle(creator, socket);
    assert.deepEqual(offerPushes(socket, unheard.id), []);
    assert.deepEqual(offerPushes(socket, heard.id).length, 1);
  });
});

describe('GET /api/offers (the feed)', () => {
  test('when a creator searches the feed for an open offer, then one page with it comes back', async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const word = `zq${uniqueToken(8)}`;
    const offer = await anOffer(brand, { title: `Gaming launch ${word}` });

    // Act
    const answer = await api<Page<OfferRecord>>('GET', `/api/offers?q=${word}&pageSize=5`, {
      token: creator.accessToken,
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      answer.body.data.items.map((item) => item.id),
      [offer.id],
    );
    assert.equal(answer.body.data.pageSize, 5);
    assert.equal(answer.body.data.total, 1);
  });

  test('when the page or page size is out of bounds or not a number, then it answers 400 without asking offers', async () => {
    // Arrange
    const creator = await onboardedCreator(['Gaming']);

    for (const query of [
      'page=0',
      'page=501',
      'pageSize=51',
      'pageSize=0',
      'page=abc',
      'interest=Nope',
    ]) {
      // Act
      const answer = await api('GET', `/api/offers?${query}`, { token: creator.accessToken });

      // Assert
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error.code, 'invalid-argument');
      assert.equal(answer.body.error.message, messages.requestProblem);
    }
  });

  test('when no one is signed in, then every offers route answers 401', async () => {
    for (const [method, path] of [
      ['GET', '/api/offers'],
      ['POST', '/api/offers'],
      ['GET', '/api/offers/x'],
      ['PATCH', '/api/offers/x'],
      ['POST', '/api/offers/x/open'],
      ['POST', '/api/offers/x/close'],
      ['GET', '/api/offers/x/applications'],
      ['POST', '/api/offers/x/applications'],
      ['GET', '/api/brand/offers'],
      ['GET', '/api/me/applications'],
      ['POST', '/api/applications/x/withdraw'],
      ['POST', '/api/applications/x/accept'],
      ['POST', '/api/applications/x/decline'],
    ] as const) {
      // Act
      const answer = await api(method, path, { body: method === 'GET' ? undefined : {} });

      // Assert
      assert.equal(answer.status, 401, `${method} ${path}`);
    }
  });
});

describe('offer commands and reads', () => {
  test("when a creator or another brand's member tries to create or change a brand's offer, then the offers service's refusal passes through", async () => {
    // Arrange
    const brand = await aBrand();
    const otherBrand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const offer = await anOffer(brand);

    // Act
    const byCreator = await api('PATCH', `/api/offers/${offer.id}`, {
      token: creator.accessToken,
      body: { title: 'A title changed by a stranger' },
    });
    const byOtherBrand = await api('POST', `/api/offers/${offer.id}/close`, {
      token: otherBrand.accessToken,
    });
    const createdByCreator = await api('POST', '/api/offers', {
      token: creator.accessToken,
      body: anOfferForm(),
    });

    // Assert
    for (const answer of [byCreator, byOtherBrand, createdByCreator]) {
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.notABrandMember);
    }
  });

  test('when the offer form breaks a rule, then it answers 400 with the rule message per field', async () => {
    // Arrange
    const brand = await aBrand();

    // Act
    const answer = await api('POST', '/api/offers', {
      token: brand.accessToken,
      body: anOfferForm({ title: 'short' }),
    });

    // Assert
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.error.fields?.title, messages.offerTitleTooShort);
  });

  test('when a brand member edits and closes an offer, then the answers carry each new version and GET /api/brand/offers lists it with its applications by status', async () => {
    // Arrange
    const brand = await aBrand();
    const offer = await anOffer(brand);
    const title = `Renamed offer ${uniqueToken(6)}`;

    // Act
    const edited = await api<OfferRecord>('PATCH', `/api/offers/${offer.id}`, {
      token: brand.accessToken,
      body: { title },
    });
    const closed = await api<OfferRecord>('POST', `/api/offers/${offer.id}/close`, {
      token: brand.accessToken,
    });
    const mine = await api<BrandOffer[]>('GET', '/api/brand/offers', { token: brand.accessToken });

    // Assert
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.data.title, title);
    assert.ok(edited.body.data.version > offer.version);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.equal(closed.body.data.status, 'closed');
    assert.equal(closed.body.data.closedReason, 'brand');
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const listed = mine.body.data.find((item) => item.id === offer.id);
    assert.ok(listed, 'the offer is in the brand list');
    assert.equal(listed.status, 'closed');
    assert.deepEqual(listed.applicationCounts, {
      pending: 0,
      accepted: 0,
      declined: 0,
      withdrawn: 0,
    });
  });

  test('when a creator asks for GET /api/brand/offers, then it answers 403 like the other brand-only routes', async () => {
    // Arrange
    const creator = await onboardedCreator(['Gaming']);

    // Act
    const answer = await api('GET', '/api/brand/offers', { token: creator.accessToken });

    // Assert
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, 'permission-denied');
  });

  test("when a creator opens an offer's page, then it has the offer, the brand's public profile and their application once they applied", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const offer = await anOffer(brand);

    // Act
    const before = await api<OfferDetail>('GET', `/api/offers/${offer.id}`, {
      token: creator.accessToken,
    });
    const applied = await api<ApplicationRecord>('POST', `/api/offers/${offer.id}/applications`, {
      token: creator.accessToken,
      body: anApplicationForm,
    });
    const after = await api<OfferDetail>('GET', `/api/offers/${offer.id}`, {
      token: creator.accessToken,
    });
    const asBrand = await api<OfferDetail>('GET', `/api/offers/${offer.id}`, {
      token: brand.accessToken,
    });

    // Assert
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.equal(before.body.data.offer.id, offer.id);
    assert.equal(before.body.data.brand.id, brand.brandId);
    assert.equal(before.body.data.brand.username, brand.registration.username.toLowerCase());
    assert.deepEqual(Object.keys(before.body.data.brand).sort(), [
      'bio',
      'company',
      'coverImg',
      'id',
      'isVerified',
      'profileImg',
      'socials',
      'username',
      'websiteUrl',
    ]);
    assert.equal(before.body.data.myApplication, null);
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    assert.equal(after.body.data.myApplication?.id, applied.body.data.id);
    assert.equal(asBrand.status, 200);
    assert.equal(asBrand.body.data.myApplication, null);
  });

  test("when a creator asks for another brand's draft or an unknown offer, then it answers 404 with the offers service's message", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const draft = await anOffer(brand, { open: false });

    for (const id of [draft.id, 'no-such-offer']) {
      // Act
      const answer = await api('GET', `/api/offers/${id}`, { token: creator.accessToken });

      // Assert
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.offerNotFound);
    }
  });
});

describe('applications', () => {
  test("when a creator applies and the brand accepts, then both answers are pushed to the applicant's and the brand member's sockets, and the lists show it", async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const bystander = await onboardedCreator(['Gaming']);
    const offer = await anOffer(brand);
    const brandSocket = await live(brand.accessToken);
    const creatorSocket = await live(creator.accessToken);
    const bystanderSocket = await live(bystander.accessToken);

    // Act: apply
    const applied = await api<ApplicationRecord>('POST', `/api/offers/${offer.id}/applications`, {
      token: creator.accessToken,
      body: anApplicationForm,
    });

    // Assert
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    const application = applied.body.data;
    assert.equal(application.status, 'pending');
    assert.equal(application.creator.username, creator.username);
    for (const socket of [brandSocket, creatorSocket])
      await eventually(
        'the application pushed',
        () => applicationPushes(socket, application.id).length > 0,
      );
    const ofOffer = await api<ApplicationRecord[]>('GET', `/api/offers/${offer.id}/applications`, {
      token: brand.accessToken,
    });
    assert.equal(ofOffer.status, 200, JSON.stringify(ofOffer.body));
    assert.deepEqual(
      ofOffer.body.data.map((record) => record.id),
      [application.id],
    );
    const mine = await api<ApplicationRecord[]>('GET', '/api/me/applications', {
      token: creator.accessToken,
    });
    assert.ok(mine.body.data.some((record) => record.id === application.id));

    // Act: accept
    const accepted = await api<ApplicationRecord>(
      'POST',
      `/api/applications/${application.id}/accept`,
      { token: brand.accessToken },
    );

    // Assert
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.data.status, 'accepted');
    const pushed = await eventually('the accepted application at the applicant', () =>
      applicationPushes(creatorSocket, application.id).find(
        (record) => record.status === 'accepted',
      ),
    );
    assert.equal(pushed.version, accepted.body.data.version);
    await eventually('the accepted application at the brand', () =>
      applicationPushes(brandSocket, application.id).some((record) => record.status === 'accepted'),
    );
    await settle(bystander, bystanderSocket);
    assert.deepEqual(applicationPushes(bystanderSocket, application.id), []);
    for (const socket of [brandSocket, creatorSocket, bystanderSocket])
      seen.push({
        what: 'socket events',
        body: socket.received.filter(([e]) => e !== 'user.updated'),
      });
  });

  test('when a creator withdraws and the brand declines another, then each answer carries the decision; a second decision is refused', async () => {
    // Arrange
    const brand = await aBrand();
    const [first, second] = [
      await onboardedCreator(['Gaming']),
      await onboardedCreator(['Gaming']),
    ];
    const offer = await anOffer(brand);
    const applyAs = async (creator: TestCreator) => {
      const answer = await api<ApplicationRecord>('POST', `/api/offers/${offer.id}/applications`, {
        token: creator.accessToken,
        body: anApplicationForm,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.data;
    };
    const [withdrawn, declined] = [await applyAs(first), await applyAs(second)];

    // Act
    const byStranger = await api('POST', `/api/applications/${withdrawn.id}/withdraw`, {
      token: second.accessToken,
    });
    const withdraw = await api<ApplicationRecord>(
      'POST',
      `/api/applications/${withdrawn.id}/withdraw`,
      { token: first.accessToken },
    );
    const decline = await api<ApplicationRecord>(
      'POST',
      `/api/applications/${declined.id}/decline`,
      { token: brand.accessToken },
    );
    const again = await api('POST', `/api/applications/${declined.id}/accept`, {
      token: brand.accessToken,
    });

    // Assert
    assert.ok([403, 404].includes(byStranger.status), JSON.stringify(byStranger.body));
    assert.equal(withdraw.status, 200, JSON.stringify(withdraw.body));
    assert.equal(withdraw.body.data.status, 'withdrawn');
    assert.equal(decline.status, 200, JSON.stringify(decline.body));
    assert.equal(decline.body.data.status, 'declined');
    assert.equal(again.status, 409);
    assert.equal(again.body.error.message, messages.applicationDecided);
  });

  test('when a creator applies twice, a brand user applies, or a creator lists an offer\u2019s applications, then the offers service\u2019s refusal passes through', async () => {
    // Arrange
    const brand = await aBrand();
    const otherBrand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const offer = await anOffer(brand);
    const path = `/api/offers/${offer.id}/applications`;
    const first = await api('POST', path, { token: creator.accessToken, body: anApplicationForm });
    assert.equal(first.status, 201, JSON.stringify(first.body));

    // Act
    const twice = await api('POST', path, { token: creator.accessToken, body: anApplicationForm });
    const byBrand = await api('POST', path, {
      token: otherBrand.accessToken,
      body: anApplicationForm,
    });
    const listedByCreator = await api('GET', path, { token: creator.accessToken });
    const listedByOtherBrand = await api('GET', path, { token: otherBrand.accessToken });
    const badPitch = await api('POST', path, {
      token: creator.accessToken,
      body: { pitch: 'too short' },
    });

    // Assert
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.message, messages.alreadyApplied);
    assert.equal(byBrand.status, 403);
    assert.equal(byBrand.body.error.message, messages.brandUsersCannotApply);
    assert.equal(listedByCreator.status, 403);
    assert.equal(listedByOtherBrand.status, 403);
    assert.equal(listedByOtherBrand.body.error.message, messages.notABrandMember);
    assert.equal(badPitch.status, 400);
    assert.equal(badPitch.body.error.fields?.pitch, messages.pitchTooShort);
  });
});

describe('public profiles', () => {
  test("when a visitor opens a creator's public profile, then it has the public fields only", async () => {
    // Arrange
    const creator = await onboardedCreator(['Gaming', 'AI']);

    // Act
    const answer = await api<PublicCreatorProfile>('GET', `/api/public/users/${creator.username}`);

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data, {
      id: creator.userId,
      username: creator.username,
      profileImg: answer.body.data.profileImg,
      coverImg: answer.body.data.coverImg,
      interests: ['Gaming', 'AI'],
      socials: { x: '', instagram: '', threads: '' },
    });
  });

  test("when a visitor asks for an unknown username or a brand's username as a creator, then it answers 404 with the page-not-found message", async () => {
    // Arrange
    const brand = await aBrand();

    for (const username of [`nobody${uniqueToken(8)}`, brand.registration.username]) {
      // Act
      const answer = await api('GET', `/api/public/users/${username}`);

      // Assert
      assert.equal(answer.status, 404, username);
      assert.equal(answer.body.error.message, messages.pageNotFound);
    }
  });

  test("when a visitor opens a brand's public profile, then it has the brand's public fields and its open offers only", async () => {
    // Arrange
    const brand = await aBrand();
    const open = await anOffer(brand);
    const draft = await anOffer(brand, { open: false });

    // Act
    const answer = await api<PublicBrandProfile>(
      'GET',
      `/api/public/brands/${brand.registration.username}`,
    );
    const unknown = await api('GET', `/api/public/brands/nobrand${uniqueToken(8)}`);

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.id, brand.brandId);
    assert.deepEqual(
      answer.body.data.offers.map((offer) => offer.id),
      [open.id],
    );
    assert.ok(!answer.body.data.offers.some((offer) => offer.id === draft.id));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.message, messages.pageNotFound);
  });
});

describe('rate limits of offers', () => {
  test('when a brand member creates more offers than the limit allows, then the next answers 429 with Retry-After', async () => {
    // Arrange
    const brand = await aBrand();
    const create = () =>
      callBff(tightBff, 'POST', '/api/offers', { token: brand.accessToken, body: anOfferForm() });
    assert.equal((await create()).status, 201);
    assert.equal((await create()).status, 201);

    // Act
    const limited = await create();

    // Assert
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'resource-exhausted');
    assert.match(limited.body.error.message, /Too many attempts/);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
  });

  test('when a creator applies more often than the limit allows, then the next application answers 429', async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const offers = [await anOffer(brand), await anOffer(brand), await anOffer(brand)];
    const applyTo = (offer: OfferRecord) =>
      callBff(tightBff, 'POST', `/api/offers/${offer.id}/applications`, {
        token: creator.accessToken,
        body: anApplicationForm,
      });
    assert.equal((await applyTo(offers[0]!)).status, 201);
    assert.equal((await applyTo(offers[1]!)).status, 201);

    // Act
    const limited = await applyTo(offers[2]!);

    // Assert
    assert.equal(limited.status, 429);
    assert.match(limited.body.error.message, /Too many attempts/);
  });
});

describe('privacy', () => {
  test('when every answer, error and offer or application event of this file is read, then none carries a first name, last name or e-mail', () => {
    assert.ok(seen.length > 40, `only ${seen.length} answers seen`);
    assert.ok(privateValues.length > 10);
    for (const { what, body } of seen) {
      const text = JSON.stringify(body as BffBody<unknown>);
      assert.ok(!/"(firstName|lastName|email|phoneNumber)"/.test(text), `${what}: ${text}`);
      for (const value of privateValues)
        assert.ok(!text.toLowerCase().includes(value.toLowerCase()), `${what} carries ${value}`);
    }
  });
});
