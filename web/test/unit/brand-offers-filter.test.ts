import { test } from 'vitest';
import assert from 'node:assert/strict';
import type { BrandOffer } from '@raly/contracts/offers';
import {
  filterOffers,
  offersFilterLabel,
  offersFilterOf,
} from '../../src/features/brand-offers/utils/offers-filter.ts';

const anOffer = (id: string, status: BrandOffer['status'], pending: number) =>
  ({
    id,
    status,
    applicationCounts: { pending, accepted: 0, declined: 0, withdrawn: 0 },
  }) as BrandOffer;

const offers = [anOffer('a', 'open', 2), anOffer('b', 'draft', 0), anOffer('c', 'closed', 1)];
const ids = (list: BrandOffer[]) => list.map((offer) => offer.id);

test('when the query asks for a status, then only the offers of that status stay', () => {
  const filter = offersFilterOf(new URLSearchParams('status=draft'));

  assert.deepEqual(filter, { status: 'draft' });
  assert.deepEqual(ids(filterOffers(offers, filter)), ['b']);
  assert.equal(offersFilterLabel(filter!), 'Draft offers');
});

test('when the query asks for pending applications, then the offers with any stay', () => {
  const filter = offersFilterOf(new URLSearchParams('applications=pending'));

  assert.deepEqual(ids(filterOffers(offers, filter)), ['a', 'c']);
  assert.equal(offersFilterLabel(filter!), 'Offers with applications waiting for a decision');
});

test('when the query is empty or not understood, then every offer stays', () => {
  for (const query of ['', 'status=archived', 'applications=all']) {
    const filter = offersFilterOf(new URLSearchParams(query));
    assert.equal(filter, null, query);
    assert.deepEqual(ids(filterOffers(offers, filter)), ['a', 'b', 'c']);
  }
});
