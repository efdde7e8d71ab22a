/**
 * Brand onboarding and the brand dashboard's figures through the BFF, in
 * front of the real identity-profile, brand and offers services
 * (./support/offers-suite): POST /api/me/onboarding/brand saves the brand
 * profile's essentials on the brand and sets the `brand` flag (spec §4.1),
 * with the contract's messages for bad input; GET /api/brand/offers/summary
 * counts the brand's offers by status and its pending applications.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { BrandOffersSummary, Me } from '@raly/contracts/bff-api';
import { isOnboarded } from '@raly/contracts/records';
import { eventually, uniqueToken } from '@raly/test-support';
import { anApplicationForm, offersSuite } from './support/offers-suite';
import { receivedOf } from './support/sockets';

const suite = offersSuite();
const { api, aBrand, onboardedCreator, anOffer } = suite;

const aBio = () => `We make bright running shoes for city runners. ${uniqueToken(8)}`;

const essentials = (overrides: Record<string, unknown> = {}) => ({
  company: `Acme ${uniqueToken(6)}`,
  websiteUrl: 'https://acme.example',
  bio: aBio(),
  ...overrides,
});

describe('POST /api/me/onboarding/brand', () => {
  test('when a new brand user accepts the terms and saves the brand step, then they are onboarded, the brand carries the essentials and their open tab receives both changes', async () => {
    // Arrange
    const brand = await aBrand();
    const tab = await suite.live(brand.accessToken);
    const body = essentials();
    const terms = await api<Me>('POST', '/api/me/onboarding', {
      token: brand.accessToken,
      body: { step: 'terms' },
    });
    assert.equal(terms.status, 200, JSON.stringify(terms.body));
    assert.equal(isOnboarded(terms.body.data.user), false);

    // Act
    const answer = await api<Me>('POST', '/api/me/onboarding/brand', {
      token: brand.accessToken,
      body,
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data.user.onboarding, { terms: true, brand: true });
    assert.equal(answer.body.data.brand?.company, body.company);
    assert.equal(answer.body.data.brand?.websiteUrl, body.websiteUrl);
    assert.equal(answer.body.data.brand?.bio, body.bio);
    assert.equal(answer.body.data.brand?.username, brand.registration.username.toLowerCase());
    await eventually('the tab to receive the brand flag and the bio', () => {
      const flagged = receivedOf(tab, 'user.updated').some(
        (record) => 'brand' in record.onboarding && record.onboarding.brand === true,
      );
      const bio = receivedOf(tab, 'brand.updated').some((record) => record.bio === body.bio);
      return (flagged && bio) || undefined;
    });
    const me = await api<Me>('GET', '/api/me', { token: brand.accessToken });
    assert.equal(isOnboarded(me.body.data.user), true);
  });

  test('when the essentials break the brand profile rules, then it answers 400 with the contract message per field and the flag stays unset', async () => {
    // Arrange
    const brand = await aBrand();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ company: '' }, 'company', messages.companyRequired],
      [{ websiteUrl: 'acme.example' }, 'websiteUrl', messages.urlHttpOrHttps],
      [{ bio: '' }, 'bio', messages.bioTooShort],
      [{ bio: 'Too short to say much.' }, 'bio', messages.bioTooShort],
      [{ bio: 'x'.repeat(281) }, 'bio', messages.bioTooLong],
    ];

    for (const [overrides, field, message] of cases) {
      // Act
      const answer = await api('POST', '/api/me/onboarding/brand', {
        token: brand.accessToken,
        body: essentials(overrides),
      });

      // Assert
      assert.equal(answer.status, 400, `${field}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error.message, message);
      assert.equal(answer.body.error.fields?.[field], message);
    }
    const me = await api<Me>('GET', '/api/me', { token: brand.accessToken });
    assert.deepEqual(me.body.data.user.onboarding, { terms: false, brand: false });
  });

  test('when a creator sends the brand step, then it answers 403 and their record keeps its creator steps', async () => {
    // Arrange
    const creator = await onboardedCreator(['Gaming']);

    // Act
    const answer = await api('POST', '/api/me/onboarding/brand', {
      token: creator.accessToken,
      body: essentials(),
    });

    // Assert
    assert.equal(answer.status, 403);
    const me = await api<Me>('GET', '/api/me', { token: creator.accessToken });
    assert.equal(me.body.data.brand, null);
    assert.deepEqual(Object.keys(me.body.data.user.onboarding).sort(), [
      'connects',
      'interests',
      'terms',
      'wallet',
    ]);
  });

  test('when a visitor sends the brand step, then it answers 401', async () => {
    const answer = await api('POST', '/api/me/onboarding/brand', { body: essentials() });

    assert.equal(answer.status, 401);
  });
});

describe('GET /api/brand/offers/summary', () => {
  test('when a brand has open, draft and closed offers and a pending application, then the figures count each', async () => {
    // Arrange
    const brand = await aBrand();
    const creator = await onboardedCreator(['Gaming']);
    const open = await anOffer(brand);
    await anOffer(brand);
    await anOffer(brand, { open: false });
    const closing = await anOffer(brand);
    const closed = await api('POST', `/api/offers/${closing.id}/close`, {
      token: brand.accessToken,
    });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const applied = await api('POST', `/api/offers/${open.id}/applications`, {
      token: creator.accessToken,
      body: anApplicationForm,
    });
    assert.equal(applied.status, 201, JSON.stringify(applied.body));

    // Act
    const answer = await api<BrandOffersSummary>('GET', '/api/brand/offers/summary', {
      token: brand.accessToken,
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data, {
      offers: { open: 2, draft: 1, closed: 1 },
      pendingApplications: 1,
    });
  });

  test('when a brand has no offers yet, then every figure is 0', async () => {
    const brand = await aBrand();

    const answer = await api<BrandOffersSummary>('GET', '/api/brand/offers/summary', {
      token: brand.accessToken,
    });

    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data, {
      offers: { open: 0, draft: 0, closed: 0 },
      pendingApplications: 0,
    });
  });

  test('when a creator or a visitor asks for the figures, then it answers 403 or 401', async () => {
    const creator = await onboardedCreator(['Gaming']);

    const asCreator = await api('GET', '/api/brand/offers/summary', { token: creator.accessToken });
    const asVisitor = await api('GET', '/api/brand/offers/summary');

    assert.equal(asCreator.status, 403);
    assert.equal(asVisitor.status, 401);
  });
});
