import { test } from 'vitest';
import assert from 'node:assert/strict';
import type { OfferRecord, Page } from '@raly/contracts/offers';
import {
  compensationText,
  dateInputOf,
  endOfDayIso,
  formatMoney,
  placesLeftOf,
  toMajorUnitsText,
  toMinorUnits,
} from '../../src/lib/offer-format.ts';
import {
  applyOfferToFeed,
  countByStatus,
  feedSearchParams,
  isLiveArrival,
  offerMatchesQuery,
  upsertNewer,
} from '../../src/lib/offer-live.ts';
import { paths, pathOf } from '../../src/config/paths.ts';
import {
  offerArrivalsReset,
  offerArrivalsSlice,
  offerArrived,
  offersFeedSeen,
} from '../../src/lib/offer-arrivals.ts';
import {
  feedQueryOf,
  pageCountOf,
  searchParamsOf,
  toggled,
} from '../../src/features/offers/utils/feed-filters.ts';
import { anOfferRecord } from '../support/offer-records.ts';

const pageOf = (items: OfferRecord[]): Page<OfferRecord> => ({
  items,
  page: 1,
  pageSize: 20,
  total: items.length,
});

test('when an amount in cents is formatted, then it reads in major units with its currency', () => {
  assert.equal(formatMoney({ amountMinor: 125_000, currency: 'USD' }, 'en-US'), '$1,250.00');
  assert.equal(formatMoney({ amountMinor: 5, currency: 'EUR' }, 'en-US'), '€0.05');
  assert.equal(formatMoney({ amountMinor: 99_900, currency: 'GBP' }, 'en-GB'), '£999.00');
});

test('when the compensation is the product only, then it reads as the product', () => {
  assert.equal(
    compensationText({ kind: 'product', description: 'A pair of shoes' }),
    'Product: A pair of shoes',
  );
});

test('when an amount is typed in major units, then it becomes integer minor units', () => {
  assert.equal(toMinorUnits('1250', 'USD'), 125_000);
  assert.equal(toMinorUnits('1,250.5', 'USD'), 125_050);
  assert.equal(toMinorUnits(' 0.07 ', 'EUR'), 7);
});

test('when the typed amount is empty, has too many decimals or is not a number, then it is NaN', () => {
  for (const text of ['', '12.345', 'abc', '-5', '1.2.3']) {
    assert.ok(Number.isNaN(toMinorUnits(text, 'USD')), text);
  }
});

test('when minor units are shown in an input, then they read back to the same amount', () => {
  assert.equal(toMajorUnitsText(125_050, 'USD'), '1250.50');
  assert.equal(toMinorUnits(toMajorUnitsText(125_050, 'USD'), 'USD'), 125_050);
});

test('when an apply-by date is chosen, then it is sent as the end of that local day', () => {
  const iso = endOfDayIso('2031-03-15');
  const date = new Date(iso);

  assert.match(iso, /Z$/);
  assert.deepEqual(
    [date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes()],
    [2031, 2, 15, 23, 59],
  );
  assert.equal(dateInputOf(iso), '2031-03-15');
});

test('when the apply-by date is empty or impossible, then nothing is sent (the rule says it is required)', () => {
  assert.equal(endOfDayIso(''), '');
  assert.equal(endOfDayIso('2031-02-30'), '');
  assert.equal(endOfDayIso('15/03/2031'), '');
});

test('when places are filled, then places left count down and never below 0', () => {
  assert.equal(placesLeftOf({ creatorsWanted: 3, placesFilled: 1 }), 2);
  assert.equal(placesLeftOf({ creatorsWanted: 3, placesFilled: 5 }), 0);
});

test('when a new matching offer arrives live, then it goes to the top of the first page', () => {
  const shown = anOfferRecord();
  const arriving = anOfferRecord({ interests: ['AI'] });

  const page = applyOfferToFeed(pageOf([shown]), arriving, { interest: ['AI', 'Gaming'] });

  assert.deepEqual(
    page.items.map((offer) => offer.id),
    [arriving.id, shown.id],
  );
  assert.equal(page.total, 2);
});

test('when an arriving offer does not match the filters or the page is not the first, then the feed is unchanged', () => {
  const feed = pageOf([anOfferRecord()]);

  assert.equal(
    applyOfferToFeed(feed, anOfferRecord({ interests: ['AI'] }), { interest: ['Gaming'] }),
    feed,
  );
  assert.equal(
    applyOfferToFeed(feed, anOfferRecord({ platforms: ['x'] }), { platform: ['threads'] }),
    feed,
  );
  assert.equal(applyOfferToFeed(feed, anOfferRecord(), { page: 2 }), feed);
  assert.equal(applyOfferToFeed(feed, anOfferRecord({ status: 'draft' }), {}), feed);
});

test('when a shown offer closes, then it leaves the feed; an older version changes nothing', () => {
  const shown = anOfferRecord({ version: 3 });
  const feed = pageOf([shown]);

  assert.equal(applyOfferToFeed(feed, { ...shown, version: 2, title: 'Older title' }, {}), feed);
  const closed = applyOfferToFeed(feed, { ...shown, version: 4, status: 'closed' }, {});
  assert.deepEqual(closed.items, []);
  assert.equal(closed.total, 0);
});

test('when the search text is in the title, brief or brand, then the offer matches it', () => {
  const offer = anOfferRecord({ title: 'Summer sneakers drop', brief: 'x'.repeat(40) });

  assert.equal(offerMatchesQuery(offer, { q: 'SNEAKERS' }), true);
  assert.equal(offerMatchesQuery(offer, { q: 'acme' }), true);
  assert.equal(offerMatchesQuery(offer, { q: 'tractor' }), false);
});

test('when a record is upserted, then a newer version replaces it and a new one is added first', () => {
  const first = { id: 'a', version: 2 };
  assert.deepEqual(upsertNewer([first], { id: 'a', version: 3 }), [{ id: 'a', version: 3 }]);
  assert.deepEqual(upsertNewer([first], { id: 'a', version: 1 }), [first]);
  assert.deepEqual(upsertNewer([first], { id: 'b', version: 1 }), [{ id: 'b', version: 1 }, first]);
});

test('when an offer opens after the tab started listening, then it counts once as a live arrival', () => {
  const since = Date.now() - 1000;
  const offer = anOfferRecord({ openedAt: new Date().toISOString() });

  assert.equal(isLiveArrival(offer, new Set(), since), true);
  assert.equal(isLiveArrival(offer, new Set([offer.id]), since), false);
  assert.equal(isLiveArrival({ ...offer, status: 'closed' }, new Set(), since), false);
  assert.equal(
    isLiveArrival({ ...offer, openedAt: new Date(since - 1).toISOString() }, new Set(), since),
    false,
  );
});

test('when applications are counted, then each status has its count', () => {
  assert.deepEqual(
    countByStatus([{ status: 'pending' }, { status: 'pending' }, { status: 'accepted' }]),
    { pending: 2, accepted: 1, declined: 0, withdrawn: 0 },
  );
});

test('when the feed URL carries filters, then the query keeps known values only and round-trips', () => {
  const query = feedQueryOf(
    new URLSearchParams('interest=AI,Nope,Gaming&platform=x,tiktok&q=shoes&page=3'),
  );

  assert.deepEqual(query.interest, ['AI', 'Gaming']);
  assert.deepEqual(query.platform, ['x']);
  assert.equal(query.q, 'shoes');
  assert.equal(query.page, 3);
  assert.equal(searchParamsOf(query).toString(), 'interest=AI%2CGaming&platform=x&q=shoes&page=3');
  assert.equal(feedQueryOf(new URLSearchParams('page=-2')).page, 1);
});

test('when a filter is toggled, then it is added or removed; pages are counted up', () => {
  assert.deepEqual(toggled(['AI'], 'Gaming'), ['AI', 'Gaming']);
  assert.deepEqual(toggled(['AI', 'Gaming'], 'AI'), ['Gaming']);
  assert.equal(pageCountOf(0, 10), 1);
  assert.equal(pageCountOf(21, 10), 3);
});

test('when a path has parameters, then pathOf fills them in, encoded', () => {
  assert.equal(pathOf(paths.offer, { id: 'a b' }), '/offers/a%20b');
  assert.equal(pathOf(paths.publicBrand, { username: 'acme' }), '/brand/acme');
  assert.equal(pathOf(paths.brandOfferEdit, { id: '7' }), '/brand/offers/7/edit');
});

test('when the feed is asked for, then lists are joined with commas and empty values left out', () => {
  assert.equal(
    feedSearchParams({
      interest: ['AI', 'Gaming'],
      platform: [],
      q: '  ',
      page: 2,
      pageSize: 10,
    }).toString(),
    'interest=AI%2CGaming&page=2&pageSize=10',
  );
  assert.equal(feedSearchParams({}).toString(), '');
});

test('when offers arrive live, then the badge counts each once, and seeing the feed clears it', () => {
  let state = offerArrivalsSlice.reducer(undefined, { type: 'init' });

  state = offerArrivalsSlice.reducer(state, offerArrived('a'));
  state = offerArrivalsSlice.reducer(state, offerArrived('b'));
  state = offerArrivalsSlice.reducer(state, offerArrived('a'));
  assert.equal(state.unseen, 2);

  state = offerArrivalsSlice.reducer(state, offersFeedSeen());
  state = offerArrivalsSlice.reducer(state, offerArrived('b'));
  assert.equal(state.unseen, 0, 'an offer already counted counts again');
  assert.deepEqual(state.counted, ['a', 'b']);

  state = offerArrivalsSlice.reducer(state, offerArrivalsReset());
  assert.deepEqual(state, { unseen: 0, counted: [] });
});
