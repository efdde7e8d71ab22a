/**
 * The offers suites' system: the real identity-profile, brand and offers
 * services (and optionally collaborations and notifications) behind a BFF
 * (optionally a second replica of its deployment and a BFF with tight apply,
 * create-offer, send-message, submit-deliverable, leave-review, mark-read and
 * update-preferences limits), helpers that make unique brands, creators and
 * offers through it, and the privacy sweep: every answer and socket event a
 * suite saw is checked for anyone's first name, last name or e-mail.
 */
import assert from 'node:assert/strict';
import { beforeAll, afterAll } from 'vitest';
import type { Interest } from '@raly/contracts/constants';
import type { Me } from '@raly/contracts/bff-api';
import type { CreateOffer, OfferRecord } from '@raly/contracts/offers';
import type { RunningBff } from '../../src/app';
import { isolatedLive } from './offers';
import { connectLive, receivedOf, type RecordingSocket } from './sockets';
import { eventually, testStack, uniqueToken } from '@raly/test-support';
import { type BffBody, callBff, startTestBff } from '@raly/test-support/bff';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

/** An apply-by date `days` from now (ISO 8601). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A valid offer form with a unique title; `overrides` win. */
export const anOfferForm = (overrides: Partial<CreateOffer> = {}): CreateOffer => ({
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

export const anApplicationForm = {
  pitch: 'I film daily gaming videos for forty thousand people who love them.',
  proposedRate: { amountMinor: 40_000, currency: 'EUR' as const },
};

export interface TestCreator {
  userId: string;
  username: string;
  accessToken: string;
  record: Me['user'];
}

export const offerPushes = (socket: RecordingSocket, offerId: string) =>
  receivedOf(socket, 'offer.updated').filter((offer) => offer.id === offerId);
export const applicationPushes = (socket: RecordingSocket, applicationId: string) =>
  receivedOf(socket, 'application.updated').filter((record) => record.id === applicationId);

export interface OffersSuiteOptions {
  /** Also start a second replica of the BFF's deployment (same read model, rooms and consumer group). */
  replica?: boolean;
  /** Also start a BFF with tight per-user limits on writes (2 per hour each). */
  tight?: boolean;
  /** Also start services/collaborations (it opens a collaboration for each accepted application). */
  collaborations?: boolean;
  /** Also start services/media (image uploads and reads). */
  media?: boolean;
  /** Also start services/notifications (it fills each person's inbox from the events). */
  notifications?: boolean;
}

/**
 * Registers the suite's beforeAll/afterAll (call it at the top of a test
 * file) and answers its helpers; `bff`, `replica` and `tightBff` are set once
 * beforeAll has run.
 */
export function offersSuite(options: OffersSuiteOptions = {}) {
  let system: RalySystem;
  const running: { bff?: RunningBff; replica?: RunningBff; tightBff?: RunningBff } = {};
  const sockets: RecordingSocket[] = [];
  /** Every e-mail, first name and last name of the suite's users: none may show up where others can see it. */
  const privateValues: string[] = [];
  /** Every answer body and offer/application socket event of the routes under test. */
  const seen: { what: string; body: unknown }[] = [];
  const started = (bff: RunningBff | undefined, name: string): RunningBff => {
    assert.ok(bff, `${name} is not started`);
    return bff;
  };

  beforeAll(async () => {
    system = await startSystem({
      offers: true,
      collaborations: options.collaborations,
      media: options.media,
      notifications: options.notifications,
    });
    const services = {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
      OFFERS_URL: system.offersUrl,
      ...(options.collaborations ? { COLLABORATIONS_URL: system.collaborationsUrl } : {}),
      ...(options.media ? { MEDIA_URL: system.mediaUrl } : {}),
      ...(options.notifications ? { NOTIFICATIONS_URL: system.notificationsUrl } : {}),
    };
    const stack = await testStack();
    const deployment = isolatedLive();
    running.bff = await startTestBff(stack, { ...services, ...deployment });
    if (options.replica)
      running.replica = await startTestBff(stack, {
        ...services,
        ...deployment,
        KAFKA_GROUP_ID: running.bff.config.KAFKA_GROUP_ID,
      });
    if (options.tight)
      running.tightBff = await startTestBff(stack, {
        ...services,
        ...isolatedLive(),
        RATE_LIMIT_APPLY_PER_USER: { points: 2, durationSeconds: 3600 },
        RATE_LIMIT_CREATE_OFFER_PER_USER: { points: 2, durationSeconds: 3600 },
        RATE_LIMIT_SEND_MESSAGE_PER_USER: { points: 2, durationSeconds: 3600 },
        RATE_LIMIT_SUBMIT_DELIVERABLE_PER_USER: { points: 2, durationSeconds: 3600 },
        RATE_LIMIT_LEAVE_REVIEW_PER_USER: { points: 2, durationSeconds: 3600 },
        RATE_LIMIT_MARK_READ_PER_USER: { points: 2, durationSeconds: 3600 },
        RATE_LIMIT_UPDATE_PREFERENCES_PER_USER: { points: 2, durationSeconds: 3600 },
      });
  });

  afterAll(async () => {
    for (const { socket } of sockets) socket.close();
    await running.bff?.stop();
    await running.tightBff?.stop();
    await running.replica?.stop();
    await system?.stop();
  });

  const suite = {
    /** The services behind the BFF (their SQL, to wait for a consumer's copy). */
    get system() {
      return system;
    },
    get bff() {
      return started(running.bff, 'bff');
    },
    get replica() {
      return started(running.replica, 'the replica');
    },
    get tightBff() {
      return started(running.tightBff, 'the tight BFF');
    },
    seen,

    /** A call to the BFF whose answer is kept for the privacy sweep. */
    async api<Data>(
      method: string,
      path: string,
      request: { token?: string; body?: unknown; on?: RunningBff } = {},
    ) {
      const answer = await callBff<Data>(request.on ?? suite.bff, method, path, {
        token: request.token,
        body: request.body,
      });
      seen.push({ what: `${method} ${path} → ${answer.status}`, body: answer.body });
      return answer;
    },

    async live(token: string, on?: RunningBff): Promise<RecordingSocket> {
      const socket = await connectLive(on ?? suite.bff, token);
      sockets.push(socket);
      return socket;
    },

    /** A registered creator who finished onboarding through the BFF, with these interests and offer notifications on. */
    async onboardedCreator(interests: Interest[]): Promise<TestCreator> {
      const creator = await registeredCreator(system);
      privateValues.push(creator.registration.email);
      const token = creator.accessToken;
      const saved = await callBff(suite.bff, 'PUT', '/api/me/interests', {
        token,
        body: { interests },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      let record: Me['user'] | undefined;
      for (const step of ['terms', 'connects', 'wallet']) {
        const answer = await callBff<Me>(suite.bff, 'POST', '/api/me/onboarding', {
          token,
          body: { step },
        });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        record = answer.body.data.user;
      }
      return {
        userId: creator.userId,
        username: creator.registration.username.toLowerCase(),
        accessToken: token,
        record: record!,
      };
    },

    /** A registered brand whose contact's names are unique (to look for them where they must not be). */
    async aBrand() {
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
    },

    /**
     * Changes the creator's marketing notifications through the BFF and waits until their
     * `socket` has the answered record: every push emitted before has reached it by then.
     */
    async settle(creator: TestCreator, socket: RecordingSocket): Promise<void> {
      const answer = await callBff<Me>(suite.bff, 'PATCH', '/api/me', {
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
    },

    /** Creates an offer through the BFF as the brand (open at once unless `open` is false). */
    async anOffer(
      brand: { accessToken: string },
      overrides: Partial<CreateOffer> = {},
    ): Promise<OfferRecord> {
      const answer = await suite.api<OfferRecord>('POST', '/api/offers', {
        token: brand.accessToken,
        body: { ...anOfferForm(), open: true, ...overrides },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.data;
    },

    /**
     * The privacy sweep: no answer, error or socket event the suite saw carries a
     * first name, last name or e-mail of its users, nor any such field with a text value.
     * @param atLeast how many answers the suite must have seen (the sweep covered them)
     */
    assertNothingPrivateSeen(atLeast: number): void {
      assert.ok(seen.length >= atLeast, `only ${seen.length} answers seen`);
      assert.ok(privateValues.length > 0);
      for (const { what, body } of seen) {
        const text = JSON.stringify(body as BffBody<unknown>);
        // A field of that name with a text value (a notification preference's `email` channel
        // is a boolean and names no address).
        assert.ok(!/"(firstName|lastName|email|phoneNumber)":"/.test(text), `${what}: ${text}`);
        for (const value of privateValues)
          assert.ok(!text.toLowerCase().includes(value.toLowerCase()), `${what} carries ${value}`);
      }
    },
  };
  return suite;
}
