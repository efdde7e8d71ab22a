import { test } from 'vitest';
import assert from 'node:assert/strict';
import { paths } from '../../src/config/paths.ts';
import { routeMetaOf } from '../../src/app/route-meta.ts';

test('when a path names a page, then its RouteMeta is the one the router renders', () => {
  assert.equal(routeMetaOf('/'), paths.home);
  assert.equal(routeMetaOf('/login'), paths.login);
  assert.equal(routeMetaOf('/offers/42'), paths.offer);
  assert.equal(routeMetaOf('/brand/offers/7/edit'), paths.brandOfferEdit);
});

test('when /brand/offers meets /brand/:username, then the static segment wins, as in the router', () => {
  assert.equal(routeMetaOf('/brand/offers'), paths.brandOffers);
  assert.equal(routeMetaOf('/brand/team'), paths.brandTeam);
  assert.equal(routeMetaOf('/brand/acme'), paths.publicBrand);
});

test('when the path is unknown, then the RouteMeta is the 404 page', () => {
  assert.equal(routeMetaOf('/no/such/page'), paths.notFound);
});
