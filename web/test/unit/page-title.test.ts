import { test } from 'vitest';
import assert from 'node:assert/strict';
import { paths } from '../../src/config/paths.ts';
import { pageTitle } from '../../src/lib/page-title.ts';

test('when the route is home, then the page title is the product name alone', () => {
  assert.equal(pageTitle(paths.home), 'Raly');
});

test('when the route has a title, then the page title appends " - Raly"', () => {
  assert.equal(pageTitle(paths.joinCreator), 'Join as a creator - Raly');
  assert.equal(pageTitle(paths.settingsAccount), 'Account - Raly');
});

test('when no route matched, then the page title is the product name', () => {
  assert.equal(pageTitle(undefined), 'Raly');
});

test('when listing the route table, then every route of spec §2 is there', () => {
  const routePaths = Object.values(paths).map((route) => route.path);
  for (const path of [
    '/',
    '/join',
    '/join/creator',
    '/join/brand',
    '/login',
    '/forgot-password',
    '/dashboard',
    '/notifications',
    '/auth/action',
    '/settings',
    '/settings/account',
    '/settings/brand',
    '/onboarding',
    '*',
  ]) {
    assert.ok(routePaths.includes(path), `missing ${path}`);
  }
});

test('when a route needs a signed-in user, then it is marked protected', () => {
  const protectedPaths = Object.values(paths)
    .filter((route) => route.access === 'protected')
    .map((route) => route.path);
  assert.deepEqual(protectedPaths.sort(), [
    '/applications',
    '/brand/offers',
    '/brand/offers/:id',
    '/brand/offers/:id/edit',
    '/brand/offers/new',
    '/brand/team',
    '/collaborations',
    '/collaborations/:id',
    '/dashboard',
    '/notifications',
    '/offers',
    '/offers/:id',
    '/onboarding',
    '/settings',
    '/settings/account',
    '/settings/brand',
    '/settings/notifications',
    '/settings/reports',
  ]);
});
