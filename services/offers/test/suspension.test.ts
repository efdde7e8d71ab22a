/**
 * What a staff suspension does in offers (docs/console.md): a suspended brand's open offers
 * close, a suspended creator's pending applications are withdrawn, each as the record's usual
 * snapshot; lifting the suspension reopens nothing.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { callApi, dataOf, envelopeOf, eventually } from '@raly/test-support';
import { type RalySystem, registeredBrand } from '@raly/test-support/system';
import {
  anApplicationForm,
  anOfferForm,
  asUser,
  onboardedCreator,
  useOffersSystem,
} from './support';

const harness = useOffersSystem();
let system: RalySystem;

beforeAll(() => {
  ({ system } = harness);
});

/** A staff decision as the BFF sends it to the owning service. */
const decide = (baseUrl: string, path: string, suspended: boolean) =>
  callApi(baseUrl, 'PUT', path, {
    body: {
      suspended,
      reason: 'A staff decision',
      staff: { userId: 'staff-1', email: 'staff-1@raly.test' },
    },
    serviceToken: system.serviceTokens.bff,
  });

async function openOfferOf(token: string) {
  return dataOf<OfferRecord>(system.offersUrl, 'POST', '/offers', {
    token,
    body: anOfferForm({ open: true }),
  });
}

describe('a suspension in offers', () => {
  test('when staff suspend a brand, then its open offers close (reason brand) with offers.offer.updated, a draft stays, and lifting reopens nothing', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const [first, second] = [
      await openOfferOf(brand.accessToken),
      await openOfferOf(brand.accessToken),
    ];
    const draft = await dataOf<OfferRecord>(system.offersUrl, 'POST', '/offers', {
      token: brand.accessToken,
      body: anOfferForm(),
    });

    // Act
    const suspended = await decide(system.brandUrl, `/brands/${brand.brandId}/suspension`, true);
    await eventually('the offers closed', async () => {
      const { rows } = await system.sql.offers!.query(
        "SELECT count(*)::int AS n FROM offers WHERE brand_id = $1 AND status = 'closed'",
        [brand.brandId],
      );
      return rows[0].n === 2;
    });
    await decide(system.brandUrl, `/brands/${brand.brandId}/suspension`, false);

    // Assert
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    for (const offer of [first!, second!]) {
      const event = await harness.offerEvents.waitFor(
        (m) => m.key?.toString() === offer.id && envelopeOf(m).version === offer.version + 1,
      );
      assert.equal(envelopeOf(event).type, eventTypes.offerUpdated);
      const closed = envelopeOf(event).data as OfferRecord;
      assert.deepEqual([closed.status, closed.closedReason], ['closed', 'brand']);
    }
    await eventually('the lifted brand in offers', async () => {
      const { rows } = await system.sql.offers!.query(
        'SELECT is_suspended FROM brands WHERE id = $1',
        [brand.brandId],
      );
      return rows[0]?.is_suspended === false;
    });
    const { rows } = await system.sql.offers!.query(
      'SELECT id, status, version FROM offers WHERE brand_id = $1 ORDER BY created',
      [brand.brandId],
    );
    assert.deepEqual(
      rows.map((row) => [row.id, row.status, row.version]),
      [
        [first!.id, 'closed', first!.version + 1],
        [second!.id, 'closed', second!.version + 1],
        [draft.id, 'draft', draft.version],
      ],
    );
  });

  test('when staff suspend a creator, then their pending applications are withdrawn with offers.application.updated, a decided one stays, and the same decision again changes nothing', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const creator = await onboardedCreator(system);
    const [pendingOffer, acceptedOffer] = [
      await openOfferOf(brand.accessToken),
      await openOfferOf(brand.accessToken),
    ];
    const apply = (offer: OfferRecord) =>
      asUser(system, creator.accessToken)<ApplicationRecord>(
        'POST',
        `/offers/${offer.id}/applications`,
        anApplicationForm(),
      );
    const pending = (await apply(pendingOffer!)).body.data!;
    const accepted = (await apply(acceptedOffer!)).body.data!;
    await asUser(system, brand.accessToken)('POST', `/applications/${accepted.id}/accept`);

    // Act
    const suspended = await decide(system.identityUrl, `/users/${creator.userId}/suspension`, true);
    const event = await harness.applicationEvents.waitFor(
      (m) => m.key?.toString() === pending.id && envelopeOf(m).version === pending.version + 1,
    );
    const again = await decide(system.identityUrl, `/users/${creator.userId}/suspension`, true);

    // Assert
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    assert.equal(again.status, 200);
    assert.equal(envelopeOf(event).type, eventTypes.applicationUpdated);
    assert.equal((envelopeOf(event).data as ApplicationRecord).status, 'withdrawn');
    const { rows } = await system.sql.offers!.query(
      'SELECT id, status, version FROM applications WHERE creator_id = $1 ORDER BY created',
      [creator.userId],
    );
    assert.deepEqual(
      rows.map((row) => [row.id, row.status, row.version]),
      [
        [pending.id, 'withdrawn', pending.version + 1],
        [accepted.id, 'accepted', accepted.version + 1],
      ],
    );
  });
});
