/**
 * Offers and public profiles through the BFF, in front of the real
 * identity-profile, brand and offers services (./support/offers-suite):
 * the feed, every offer command and read with the services' refusals passed
 * through, and the public creator and brand profiles, none of which carries
 * anyone's first name, last name or e-mail.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type {
  ApplicationRecord,
  BrandOffer,
  OfferDetail,
  OfferRecord,
  Page,
  PublicBrandProfile,
  PublicCreatorProfile,
} from '@raly/contracts/offers';
import { uniqueToken } from '@raly/test-support';
import { anOfferForm, anApplicationForm, offersSuite } from './support/offers-suite';

const suite = offersSuite({ collaborations: true });
const { api, aBrand, onboardedCreator, anOffer } = suite;

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

describe('public profiles', () => {
  test("when a visitor opens a creator's public profile, then it has the public fields and an empty track record only", async () => {
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
      reviews: { average: null, count: 0 },
      figures: { onTimeShare: null, deliverablesOnTime: 0, deliverablesWithDueDate: 0 },
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

describe('privacy', () => {
  test('when every answer, error and offer or application event of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(40);
  });
});
