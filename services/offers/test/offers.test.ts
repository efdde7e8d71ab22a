/**
 * Offers: creation, editing, opening and closing by the brand's
 * members only, the reads (one offer, the feed, the brand's list, the
 * public list) and the offer events on `offers.offer.v1`, against the real
 * stack (identity-profile, brand and offers in-process).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, beforeAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import type { BrandOffer, OfferRecord, Page } from '@raly/contracts/offers';
import { envelopeOf, type TopicListener, uniqueToken } from '@raly/test-support';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import {
  anApplicationForm,
  anOfferForm,
  asUser,
  onboardedCreator,
  suspendBrand,
  useOffersSystem,
} from './support';

// The sweep is tested in deadline.test.ts; here it does not run.
const harness = useOffersSystem();
let system: RalySystem;
let offerEvents: TopicListener;
let brand: Awaited<ReturnType<typeof registeredBrand>>;
let otherBrand: Awaited<ReturnType<typeof registeredBrand>>;
let creator: Awaited<ReturnType<typeof registeredCreator>>;

beforeAll(async () => {
  ({ system, offerEvents } = harness);
  [brand, otherBrand, creator] = await Promise.all([
    registeredBrand(system),
    registeredBrand(system),
    onboardedCreator(system, ['Gaming']),
  ]);
});

const asBrand = () => asUser(system, brand.accessToken);
const asOtherBrand = () => asUser(system, otherBrand.accessToken);
const asCreator = () => asUser(system, creator.accessToken);

async function createdOffer(overrides: Parameters<typeof anOfferForm>[0] = {}) {
  const answer = await asBrand()<OfferRecord>('POST', '/offers', anOfferForm(overrides));
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data!;
}

describe('creating an offer', () => {
  test('when a brand member posts the form, then a draft of version 1 with the brand summary is answered 201 and offers.offer.created carries the same snapshot', async () => {
    // Arrange
    const form = anOfferForm({ compensation: { kind: 'product', description: 'A headset' } });

    // Act
    const answer = await asBrand()<OfferRecord>('POST', '/offers', form);

    // Assert
    assert.equal(answer.status, 201);
    const offer = answer.body.data!;
    assert.equal(offer.status, 'draft');
    assert.equal(offer.version, 1);
    assert.equal(offer.brandId, brand.brandId);
    assert.equal(offer.brand.company, brand.registration.company);
    assert.equal(offer.brand.username, brand.registration.username.toLowerCase());
    assert.deepEqual(offer.compensation, { kind: 'product', description: 'A headset' });
    assert.equal(offer.placesFilled, 0);
    assert.equal(offer.closedReason, null);
    assert.equal(offer.openedAt, null);
    assert.equal(Date.parse(offer.applyBy), Date.parse(form.applyBy));
    const event = envelopeOf<OfferRecord>(
      await offerEvents.waitFor((message) => message.key?.toString() === offer.id),
    );
    assert.equal(event.type, eventTypes.offerCreated);
    assert.equal(event.version, 1);
    assert.deepEqual(event.data, offer);
  });

  test('when the form says open: true, then the offer is open at once with openedAt set', async () => {
    // Act
    const offer = await createdOffer({ open: true });

    // Assert
    assert.equal(offer.status, 'open');
    assert.ok(offer.openedAt);
  });

  test('when a creator posts an offer, then 403 notABrandMember and nothing is stored', async () => {
    // Arrange
    const form = anOfferForm();

    // Act
    const answer = await asCreator()('POST', '/offers', form);

    // Assert
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error?.code, 'permission-denied');
    assert.equal(answer.body.error?.message, messages.notABrandMember);
    const { rows } = await system.sql.offers!.query('SELECT 1 FROM offers WHERE title = $1', [
      form.title,
    ]);
    assert.equal(rows.length, 0);
  });

  test('when the form breaks its rules or has an unknown key, then 400 with the message of each field', async () => {
    // Act
    const broken = await asBrand()('POST', '/offers', {
      ...anOfferForm(),
      title: 'short',
      creatorsWanted: 0,
      applyBy: new Date(Date.now() - 60_000).toISOString(),
    });
    const unknownKey = await asBrand()('POST', '/offers', { ...anOfferForm(), isVerified: true });
    const noToken = await asUser(system)('POST', '/offers', anOfferForm());

    // Assert
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error?.code, 'invalid-argument');
    assert.deepEqual(broken.body.error?.fields, {
      title: messages.offerTitleTooShort,
      creatorsWanted: messages.creatorsWantedRange,
      applyBy: messages.applyByInFuture,
    });
    assert.equal(unknownKey.status, 400);
    assert.equal(noToken.status, 401);
  });

  test('when a suspended brand creates an open offer, then 403 brandSuspended, and a draft is still allowed', async () => {
    // Arrange
    const suspended = await registeredBrand(system);
    await suspendBrand(system, suspended);
    const asSuspended = asUser(system, suspended.accessToken);

    // Act
    const open = await asSuspended('POST', '/offers', anOfferForm({ open: true }));
    const draft = await asSuspended<OfferRecord>('POST', '/offers', anOfferForm());
    const opening = await asSuspended('POST', `/offers/${draft.body.data?.id}/open`);

    // Assert
    assert.equal(open.status, 403);
    assert.equal(open.body.error?.message, messages.brandSuspended);
    assert.equal(draft.status, 201);
    assert.equal(opening.status, 403);
    assert.equal(opening.body.error?.message, messages.brandSuspended);
  });
});

describe('editing, opening and closing an offer', () => {
  test('when a member edits some fields, then only those change, the version goes up and offers.offer.updated carries it', async () => {
    // Arrange
    const offer = await createdOffer();

    // Act
    const answer = await asBrand()<OfferRecord>('PATCH', `/offers/${offer.id}`, {
      title: 'A brand new title',
      platforms: ['instagram', 'threads'],
    });

    // Assert
    assert.equal(answer.status, 200);
    const edited = answer.body.data!;
    assert.equal(edited.version, 2);
    assert.equal(edited.title, 'A brand new title');
    assert.deepEqual(edited.platforms, ['instagram', 'threads']);
    assert.equal(edited.brief, offer.brief);
    const event = await offerEvents.waitFor(
      (message) =>
        message.key?.toString() === offer.id &&
        envelopeOf(message).type === eventTypes.offerUpdated,
    );
    assert.deepEqual(envelopeOf(event).data, edited);
  });

  test('when the same values are saved again, then nothing changes and the version stays', async () => {
    // Arrange
    const offer = await createdOffer();

    // Act
    const answer = await asBrand()<OfferRecord>('PATCH', `/offers/${offer.id}`, {
      title: offer.title,
      applyBy: offer.applyBy,
    });

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data?.version, 1);
  });

  test('when another brand edits, opens or closes an offer, then 403 for an open one and 404 for a draft', async () => {
    // Arrange
    const open = await createdOffer({ open: true });
    const draft = await createdOffer();

    // Act
    const answers = await Promise.all([
      asOtherBrand()('PATCH', `/offers/${open.id}`, { title: 'Taken over title' }),
      asOtherBrand()('POST', `/offers/${open.id}/close`),
      asCreator()('POST', `/offers/${open.id}/close`),
      asOtherBrand()('PATCH', `/offers/${draft.id}`, { title: 'Taken over title' }),
      asOtherBrand()('POST', `/offers/${draft.id}/open`),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body.error?.message]),
      [
        [403, messages.notABrandMember],
        [403, messages.notABrandMember],
        [403, messages.notABrandMember],
        [404, messages.offerNotFound],
        [404, messages.offerNotFound],
      ],
    );
    const { rows } = await system.sql.offers!.query(
      'SELECT status, version FROM offers WHERE id = $1',
      [open.id],
    );
    assert.deepEqual(rows[0], { status: 'open', version: 1 });
  });

  test('when a member opens a draft, then it is open with openedAt; opening again changes nothing', async () => {
    // Arrange
    const draft = await createdOffer();

    // Act
    const opened = await asBrand()<OfferRecord>('POST', `/offers/${draft.id}/open`);
    const again = await asBrand()<OfferRecord>('POST', `/offers/${draft.id}/open`);

    // Assert
    assert.equal(opened.status, 200);
    assert.equal(opened.body.data?.status, 'open');
    assert.ok(opened.body.data?.openedAt);
    assert.equal(opened.body.data?.version, 2);
    assert.equal(again.body.data?.version, 2);
  });

  test('when a draft whose apply-by date has passed is opened, then 400 applyByInFuture and it stays a draft', async () => {
    // Arrange
    const draft = await createdOffer();
    await system.sql.offers!.query(
      `UPDATE offers SET apply_by = now() - interval '1 minute' WHERE id = $1`,
      [draft.id],
    );

    // Act
    const answer = await asBrand()('POST', `/offers/${draft.id}/open`);

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.applyByInFuture);
    assert.deepEqual(answer.body.error?.fields, { applyBy: messages.applyByInFuture });
    const { rows } = await system.sql.offers!.query('SELECT status FROM offers WHERE id = $1', [
      draft.id,
    ]);
    assert.equal(rows[0].status, 'draft');
  });

  test('when a member closes an open offer, then it is closed for reason brand, and editing, opening or closing it again answers 409 offerClosed', async () => {
    // Arrange
    const offer = await createdOffer({ open: true });

    // Act
    const closed = await asBrand()<OfferRecord>('POST', `/offers/${offer.id}/close`);
    const afterwards = await Promise.all([
      asBrand()('PATCH', `/offers/${offer.id}`, { title: 'Too late for this' }),
      asBrand()('POST', `/offers/${offer.id}/open`),
      asBrand()('POST', `/offers/${offer.id}/close`),
    ]);

    // Assert
    assert.equal(closed.status, 200);
    assert.equal(closed.body.data?.status, 'closed');
    assert.equal(closed.body.data?.closedReason, 'brand');
    assert.ok(closed.body.data?.closedAt);
    for (const answer of afterwards) {
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error?.message, messages.offerClosed);
    }
  });

  test('when creatorsWanted is edited below the places filled, then 400; edited down to them, then the open offer closes as filled', async () => {
    // Arrange
    const offer = await createdOffer({ open: true, creatorsWanted: 3 });
    const applicants = await Promise.all([onboardedCreator(system), onboardedCreator(system)]);
    for (const applicant of applicants) {
      const applied = await asUser(system, applicant.accessToken)<{ id: string }>(
        'POST',
        `/offers/${offer.id}/applications`,
        anApplicationForm(),
      );
      assert.equal(applied.status, 201);
      const accepted = await asBrand()('POST', `/applications/${applied.body.data!.id}/accept`);
      assert.equal(accepted.status, 200);
    }

    // Act
    const below = await asBrand()('PATCH', `/offers/${offer.id}`, { creatorsWanted: 1 });
    const equal = await asBrand()<OfferRecord>('PATCH', `/offers/${offer.id}`, {
      creatorsWanted: 2,
    });

    // Assert
    assert.equal(below.status, 400);
    assert.deepEqual(below.body.error?.fields, {
      creatorsWanted: messages.creatorsWantedBelowPlacesFilled,
    });
    assert.equal(equal.status, 200);
    assert.equal(equal.body.data?.status, 'closed');
    assert.equal(equal.body.data?.closedReason, 'filled');
    assert.equal(equal.body.data?.placesFilled, 2);
  });
});

describe('reading offers', () => {
  test('when anyone but a member asks for a draft, or anyone for an unknown offer, then 404 offerNotFound; the member sees the draft', async () => {
    // Arrange
    const draft = await createdOffer();

    // Act
    const answers = await Promise.all([
      asCreator()('GET', `/offers/${draft.id}`),
      asOtherBrand()('GET', `/offers/${draft.id}`),
      asCreator()('GET', `/offers/${randomUUID()}`),
      asCreator()('GET', '/offers/not-a-uuid'),
      asBrand()<OfferRecord>('GET', `/offers/${draft.id}`),
      asUser(system)('GET', `/offers/${draft.id}`),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [404, 404, 404, 404, 200, 401],
    );
    assert.equal(answers[0]!.body.error?.message, messages.offerNotFound);
    assert.equal((answers[4]!.body.data as OfferRecord).id, draft.id);
  });

  test('when the feed is read, then only open offers before their date come, those matching the caller’s interests first, then newest first, and filters and search narrow it', async () => {
    // Arrange: a brand with its own unique company name, so the search finds only its offers
    const token = uniqueToken(8);
    const feedBrand = await registeredBrand(system, { company: `Zq${token} Studio` });
    const asFeedBrand = asUser(system, feedBrand.accessToken);
    const post = async (overrides: Parameters<typeof anOfferForm>[0]) => {
      const answer = await asFeedBrand<OfferRecord>('POST', '/offers', anOfferForm(overrides));
      assert.equal(answer.status, 201);
      return answer.body.data!;
    };
    const gaming = await post({ open: true, interests: ['Gaming'], platforms: ['x'] });
    const sports = await post({ open: true, interests: ['Sports'], platforms: ['instagram'] });
    const newest = await post({ open: true, interests: ['AI'], title: `Percent 100%_ ${token}` });
    const draft = await post({ interests: ['Gaming'] });
    const expired = await post({ open: true, interests: ['Gaming'] });
    await system.sql.offers!.query(
      `UPDATE offers SET apply_by = now() - interval '1 minute' WHERE id = $1`,
      [expired.id],
    );
    const feed = (query: string) =>
      asCreator()<Page<OfferRecord>>('GET', `/offers?q=Zq${token}${query}`);

    // Act
    const all = await feed('');
    const byInterest = await feed('&interest=Sports&interest=AI');
    const byPlatform = await feed('&platform=instagram');
    const paged = await feed('&pageSize=1&page=2');
    const wildcard = await asCreator()<Page<OfferRecord>>(
      'GET',
      `/offers?q=${encodeURIComponent('100%_')}`,
    );
    const literalPercent = await asCreator()<Page<OfferRecord>>(
      'GET',
      `/offers?q=${encodeURIComponent(`%${token}`)}`,
    );
    const caseInsensitive = await asCreator()<Page<OfferRecord>>(
      'GET',
      `/offers?q=zq${token.toUpperCase()}`,
    );

    // Assert: the creator's interest is Gaming
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.data!.items.map((offer) => offer.id),
      [gaming.id, newest.id, sports.id],
    );
    assert.equal(all.body.data!.total, 3);
    assert.ok(!all.body.data!.items.some((offer) => [draft.id, expired.id].includes(offer.id)));
    assert.deepEqual(
      byInterest.body.data!.items.map((offer) => offer.id),
      [newest.id, sports.id],
    );
    assert.deepEqual(
      byPlatform.body.data!.items.map((offer) => offer.id),
      [sports.id],
    );
    assert.deepEqual(
      { ...paged.body.data, items: paged.body.data!.items.map((offer) => offer.id) },
      { items: [newest.id], page: 2, pageSize: 1, total: 3 },
    );
    assert.deepEqual(
      wildcard.body.data!.items.map((offer) => offer.id),
      [newest.id],
    );
    assert.equal(literalPercent.body.data!.total, 0);
    assert.equal(caseInsensitive.body.data!.total, 3);
  });

  test('when the feed query is malformed, then 400 with its field', async () => {
    // Act
    const answers = await Promise.all([
      asCreator()('GET', '/offers?interest=Knitting'),
      asCreator()('GET', '/offers?pageSize=500'),
      asCreator()('GET', '/offers?page=0'),
      asCreator()('GET', `/offers?q=${'x'.repeat(101)}`),
    ]);

    // Assert
    for (const answer of answers) assert.equal(answer.status, 400);
    assert.ok(
      answers[0]!.body.error?.fields?.interest ?? answers[0]!.body.error?.fields?.['interest.0'],
    );
  });

  test('when a member lists the brand’s offers, then every status comes newest first with application counts; others get 403', async () => {
    // Arrange
    const listBrand = await registeredBrand(system);
    const asListBrand = asUser(system, listBrand.accessToken);
    const draft = (await asListBrand<OfferRecord>('POST', '/offers', anOfferForm())).body.data!;
    const open = (await asListBrand<OfferRecord>('POST', '/offers', anOfferForm({ open: true })))
      .body.data!;
    const applied = await asCreator()<{ id: string }>(
      'POST',
      `/offers/${open.id}/applications`,
      anApplicationForm(),
    );
    assert.equal(applied.status, 201);

    // Act
    const list = await asListBrand<BrandOffer[]>('GET', `/brands/${listBrand.brandId}/offers`);
    const byOther = await asBrand()('GET', `/brands/${listBrand.brandId}/offers`);
    const byCreator = await asCreator()('GET', `/brands/${listBrand.brandId}/offers`);

    // Assert
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data!.map((offer) => [offer.id, offer.status, offer.applicationCounts]),
      [
        [open.id, 'open', { pending: 1, accepted: 0, declined: 0, withdrawn: 0 }],
        [draft.id, 'draft', { pending: 0, accepted: 0, declined: 0, withdrawn: 0 }],
      ],
    );
    assert.equal(byOther.status, 403);
    assert.equal(byOther.body.error?.message, messages.notABrandMember);
    assert.equal(byCreator.status, 403);
  });

  test('when anyone reads a brand’s public offers, without a token, then only its open offers come, newest first', async () => {
    // Arrange
    const publicBrand = await registeredBrand(system);
    const asPublicBrand = asUser(system, publicBrand.accessToken);
    const post = async (overrides: Parameters<typeof anOfferForm>[0]) =>
      (await asPublicBrand<OfferRecord>('POST', '/offers', anOfferForm(overrides))).body.data!;
    const first = await post({ open: true });
    await post({});
    const closed = await post({ open: true });
    await asPublicBrand('POST', `/offers/${closed.id}/close`);
    const second = await post({ open: true });

    // Act
    const answer = await asUser(system)<OfferRecord[]>(
      'GET',
      `/public/brands/${publicBrand.brandId}/offers`,
    );
    const unknown = await asUser(system)<OfferRecord[]>('GET', '/public/brands/nobody/offers');

    // Assert
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.data!.map((offer) => offer.id),
      [second.id, first.id],
    );
    assert.deepEqual(unknown.body.data, []);
  });
});
