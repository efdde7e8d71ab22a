/**
 * The shared rules of offers and applications
 * (`@raly/contracts/offers`): each rule answers with its message, the query
 * of the feed, and the snapshots' shapes (no names or e-mails).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import type { z } from 'zod';
import { eventTypes, parseEnvelope } from '../src/events';
import { messages } from '../src/messages';
import {
  applicantViewOf,
  applicationFormSchema,
  applicationRecordSchema,
  createOfferSchema,
  offerFormSchema,
  offerRecordSchema,
  offersQuerySchema,
  OFFERS_PAGE_SIZE_DEFAULT,
  publicCreatorProfileSchema,
  updateOfferSchema,
  type OfferRecord,
} from '../src/offers';
import { firstErrorByField } from '../src/validation';

/** First message per field when `schema` rejects `value`; {} when it accepts. */
function errorsOf(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  return result.success ? {} : firstErrorByField(result.error);
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const validOffer = {
  title: 'Launch video for our app',
  brief: 'Film a sixty second video showing how you use our app every morning.',
  interests: ['AI', 'Gaming'],
  platforms: ['x', 'instagram'],
  deliverables: 'One video and two posts.',
  compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
  creatorsWanted: 3,
  applyBy: inDays(7),
};

const validApplication = {
  pitch: 'I film daily tech videos for forty thousand people.',
  proposedRate: { amountMinor: 40_000, currency: 'EUR' },
};

describe('the offer form', () => {
  test('when every field is valid, then it is accepted as a draft or with open: true', () => {
    assert.deepEqual(errorsOf(offerFormSchema, validOffer), {});
    assert.equal(createOfferSchema.parse({ ...validOffer, open: true }).open, true);
    assert.equal(createOfferSchema.parse(validOffer).open, undefined);
  });

  const cases: [string, Record<string, unknown>, Record<string, string>][] = [
    ['a blank title', { title: '   ' }, { title: messages.offerTitleRequired }],
    ['a short title', { title: 'Short' }, { title: messages.offerTitleTooShort }],
    ['a long title', { title: 'x'.repeat(81) }, { title: messages.offerTitleTooLong }],
    [
      'a title with a control character',
      { title: 'Launch\u0007 video' },
      { title: messages.controlCharacters },
    ],
    ['a blank brief', { brief: ' ' }, { brief: messages.offerBriefRequired }],
    ['a short brief', { brief: 'Too short a brief.' }, { brief: messages.offerBriefTooShort }],
    ['a long brief', { brief: 'x'.repeat(2001) }, { brief: messages.offerBriefTooLong }],
    ['no interests', { interests: [] }, { interests: messages.offerInterestsRequired }],
    ['no platforms', { platforms: [] }, { platforms: messages.offerPlatformsRequired }],
    ['a repeated platform', { platforms: ['x', 'x'] }, { platforms: messages.requestProblem }],
    [
      'blank deliverables',
      { deliverables: '' },
      { deliverables: messages.offerDeliverablesRequired },
    ],
    [
      'long deliverables',
      { deliverables: 'x'.repeat(1001) },
      { deliverables: messages.offerDeliverablesTooLong },
    ],
    [
      'a zero amount',
      { compensation: { kind: 'fixed', amountMinor: 0, currency: 'USD' } },
      { 'compensation.amountMinor': messages.compensationAmountInvalid },
    ],
    [
      'a fractional amount',
      { compensation: { kind: 'fixed', amountMinor: 10.5, currency: 'USD' } },
      { 'compensation.amountMinor': messages.compensationAmountInvalid },
    ],
    [
      'too large an amount',
      { compensation: { kind: 'fixed', amountMinor: 100_000_001, currency: 'USD' } },
      { 'compensation.amountMinor': messages.compensationAmountTooLarge },
    ],
    [
      'an unknown currency',
      { compensation: { kind: 'fixed', amountMinor: 100, currency: 'XXX' } },
      { 'compensation.currency': messages.compensationCurrencyInvalid },
    ],
    [
      'a product without description',
      { compensation: { kind: 'product', description: '  ' } },
      { 'compensation.description': messages.compensationProductRequired },
    ],
    [
      'a long product description',
      { compensation: { kind: 'product', description: 'x'.repeat(501) } },
      { 'compensation.description': messages.compensationProductTooLong },
    ],
    ['no creators wanted', { creatorsWanted: 0 }, { creatorsWanted: messages.creatorsWantedRange }],
    [
      'too many creators',
      { creatorsWanted: 101 },
      { creatorsWanted: messages.creatorsWantedRange },
    ],
    ['a missing apply-by date', { applyBy: '' }, { applyBy: messages.applyByRequired }],
    [
      'a date without offset',
      { applyBy: '2030-01-01T10:00:00' },
      { applyBy: messages.applyByRequired },
    ],
    ['a past apply-by date', { applyBy: inDays(-1) }, { applyBy: messages.applyByInFuture }],
  ];
  for (const [what, change, expected] of cases) {
    test(`when the form has ${what}, then it answers ${Object.values(expected)[0]}`, () => {
      assert.deepEqual(errorsOf(offerFormSchema, { ...validOffer, ...change }), expected);
    });
  }

  test('when a product is the compensation, then its description is trimmed and kept', () => {
    const form = offerFormSchema.parse({
      ...validOffer,
      compensation: { kind: 'product', description: '  A headset ' },
    });
    assert.deepEqual(form.compensation, { kind: 'product', description: 'A headset' });
  });

  test('when the form carries an unknown key, then it is refused', () => {
    assert.equal(offerFormSchema.safeParse({ ...validOffer, status: 'open' }).success, false);
    assert.equal(updateOfferSchema.safeParse({ placesFilled: 3 }).success, false);
  });

  test('when an edit names only some fields, then only those are checked', () => {
    assert.deepEqual(updateOfferSchema.parse({ title: '  A new title here ' }), {
      title: 'A new title here',
    });
    assert.deepEqual(errorsOf(updateOfferSchema, { creatorsWanted: 0 }), {
      creatorsWanted: messages.creatorsWantedRange,
    });
    assert.deepEqual(errorsOf(updateOfferSchema, {}), {});
  });
});

describe('the application form', () => {
  test('when the pitch is valid, then it is accepted with or without a proposed rate', () => {
    assert.deepEqual(errorsOf(applicationFormSchema, validApplication), {});
    assert.deepEqual(errorsOf(applicationFormSchema, { pitch: validApplication.pitch }), {});
    assert.deepEqual(
      errorsOf(applicationFormSchema, { pitch: validApplication.pitch, proposedRate: null }),
      {},
    );
  });

  test('when the pitch is blank, short or long, or the rate invalid, then each answers its message', () => {
    assert.deepEqual(errorsOf(applicationFormSchema, { pitch: '  ' }), {
      pitch: messages.pitchRequired,
    });
    assert.deepEqual(errorsOf(applicationFormSchema, { pitch: 'Hire me please' }), {
      pitch: messages.pitchTooShort,
    });
    assert.deepEqual(errorsOf(applicationFormSchema, { pitch: 'x'.repeat(501) }), {
      pitch: messages.pitchTooLong,
    });
    assert.deepEqual(
      errorsOf(applicationFormSchema, {
        ...validApplication,
        proposedRate: { amountMinor: -5, currency: 'USD' },
      }),
      { 'proposedRate.amountMinor': messages.compensationAmountInvalid },
    );
  });

  test('when the form carries an unknown key, then it is refused', () => {
    assert.equal(
      applicationFormSchema.safeParse({ ...validApplication, status: 'accepted' }).success,
      false,
    );
  });
});

describe('the feed query', () => {
  test('when nothing is given, then the first page of the default size, without filters', () => {
    const query = offersQuerySchema.parse({});
    assert.deepEqual(JSON.parse(JSON.stringify(query)), {
      page: 1,
      pageSize: OFFERS_PAGE_SIZE_DEFAULT,
    });
    assert.equal(query.interest, undefined);
    assert.equal(query.q, undefined);
  });

  test('when interests and platforms come repeated or comma-joined, then they are lists; other keys are ignored', () => {
    const query = offersQuerySchema.parse({
      interest: ['AI', 'Gaming,Sports'],
      platform: 'x,threads',
      q: '  video ',
      page: '3',
      pageSize: '10',
      sort: 'whatever',
    });
    assert.deepEqual(query, {
      interest: ['AI', 'Gaming', 'Sports'],
      platform: ['x', 'threads'],
      q: 'video',
      page: 3,
      pageSize: 10,
    });
  });

  test('when a value is unknown or out of range, then the query is refused', () => {
    for (const query of [
      { interest: 'Knitting' },
      { platform: 'tiktok' },
      { page: '0' },
      { page: '501' },
      { pageSize: '51' },
      { page: 'two' },
      { q: 'x'.repeat(101) },
    ])
      assert.equal(offersQuerySchema.safeParse(query).success, false, JSON.stringify(query));
  });
});

describe('the snapshots', () => {
  const brand = {
    id: randomUUID(),
    username: 'acme',
    company: 'Acme',
    profileImg: '',
    isVerified: false,
  };
  const offer: OfferRecord = {
    ...(validOffer as unknown as OfferRecord),
    id: randomUUID(),
    version: 1,
    brandId: brand.id,
    brand,
    placesFilled: 0,
    status: 'open',
    closedReason: null,
    created: new Date().toISOString(),
    openedAt: new Date().toISOString(),
    closedAt: null,
  };

  test('when a creator profile carries names or an e-mail, then the public profile drops them', () => {
    const profile = publicCreatorProfileSchema.parse({
      id: 'u1',
      username: 'maya',
      profileImg: '',
      coverImg: '',
      interests: ['AI'],
      socials: { x: '', instagram: '', threads: '' },
      firstName: 'Maya',
      lastName: 'Lee',
      email: 'maya@example.com',
    });
    assert.deepEqual(Object.keys(profile).sort(), [
      'coverImg',
      'id',
      'interests',
      'profileImg',
      'socials',
      'username',
    ]);
  });

  test('when an offer event arrives, then its envelope parses with the offer snapshot', () => {
    const envelope = parseEnvelope(
      JSON.stringify({
        id: randomUUID(),
        type: eventTypes.offerUpdated,
        source: 'raly/offers',
        subject: offer.id,
        time: new Date().toISOString(),
        version: 1,
        data: offer,
      }),
    );
    assert.deepEqual(envelope.data, offerRecordSchema.parse(offer));
  });

  /** A pending application snapshot to `offer` by a creator with a public profile only. */
  const anApplicationSnapshot = () => ({
    id: randomUUID(),
    version: 1,
    offerId: offer.id,
    brandId: brand.id,
    creatorId: 'u1',
    offer: { id: offer.id, title: offer.title, brand },
    creator: {
      id: 'u1',
      username: 'maya',
      profileImg: '',
      coverImg: '',
      interests: [],
      socials: { x: '', instagram: '', threads: '' },
    },
    pitch: validApplication.pitch,
    proposedRate: null,
    status: 'pending',
    created: new Date().toISOString(),
    decidedAt: null,
  });

  test('when an application snapshot lacks its creator, then it is refused', () => {
    const application = anApplicationSnapshot();
    assert.equal(applicationRecordSchema.safeParse(application).success, true);
    assert.equal(
      applicationRecordSchema.safeParse({ ...application, creator: undefined }).success,
      false,
    );
  });

  test('when a decided application names its member, then the brand keeps `decidedBy` and the applicant’s view drops it', () => {
    // Arrange
    const application = applicationRecordSchema.parse({
      ...anApplicationSnapshot(),
      version: 2,
      status: 'accepted',
      decidedAt: new Date().toISOString(),
      decidedBy: { memberHandle: 'sam' },
    });
    const undecided = { ...application, status: 'pending' as const, decidedBy: undefined };
    delete undecided.decidedBy;

    // Act
    const applicantView = applicantViewOf(application);

    // Assert
    assert.deepEqual(application.decidedBy, { memberHandle: 'sam' });
    assert.equal('decidedBy' in applicantView, false);
    assert.deepEqual({ ...applicantView, decidedBy: application.decidedBy }, application);
    assert.equal(applicantViewOf(undecided), undecided);
  });
});
