import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BrandRecord } from '@raly/contracts/records';
import { brandProfileSchema } from '@raly/contracts/validation';
import { publicUrlPrefixes } from '../../src/config/public-urls.ts';
import {
  brandFormValuesOf,
  usernameNeedsCheck,
} from '../../src/features/brand-profile/utils/brand-form-values.ts';

function aBrand(overrides: Partial<BrandRecord> = {}): BrandRecord {
  const token = randomUUID().slice(0, 8);
  return {
    id: randomUUID(),
    version: 3,
    username: `brand${token}`,
    company: `Company ${token}`,
    websiteUrl: `https://${token}.example.com`,
    profileImg: `http://localhost:4003/files/brand/profile-img/${token}.svg?v=1`,
    coverImg: '',
    bio: '',
    socials: { x: `https://x.com/${token}`, instagram: '', threads: '', discord: '' },
    permissions: { isAgency: false, isVerified: false, isSuspended: false },
    created: new Date().toISOString(),
    ...overrides,
  };
}

test('when the form opens, then it holds exactly the editable fields of the brand, and they pass the brand rules', () => {
  const brand = aBrand({ bio: 'We make the finest widgets on the whole planet.' });

  const values = brandFormValuesOf(brand);

  assert.deepEqual(values, {
    username: brand.username,
    company: brand.company,
    websiteUrl: brand.websiteUrl,
    bio: brand.bio,
    socials: brand.socials,
  });
  assert.equal(brandProfileSchema.safeParse(values).success, true);
});

test('when the username is unchanged, then its uniqueness is not checked; when changed, it is', () => {
  const brand = aBrand();

  assert.equal(usernameNeedsCheck(brand, brand.username), false);
  assert.equal(usernameNeedsCheck(brand, `${brand.username}x`), true);
});

test('when usernames are shown with their public URL, then brands and users have different host-less prefixes', () => {
  assert.equal(publicUrlPrefixes.brand, '/brand/');
  assert.equal(publicUrlPrefixes.user, '/user/');
  for (const prefix of Object.values(publicUrlPrefixes)) assert.match(prefix, /^\/[a-z]+\/$/);
});
