import { test } from 'vitest';
import assert from 'node:assert/strict';
import type { BrandRecord } from '@raly/contracts/records';
import { brandProfileSchema } from '@raly/contracts/validation';
import { aBrandRecord, uniqueToken } from '@raly/test-support/records';
import { publicUrlPrefixes } from '../../src/config/public-urls.ts';
import {
  brandFormValuesOf,
  usernameNeedsCheck,
} from '../../src/features/brand-profile/utils/brand-form-values.ts';

/** A brand record as the form receives it: a stored picture, an X link (other values unique). */
function aBrand(overrides: Partial<BrandRecord> = {}): BrandRecord {
  const token = uniqueToken(8);
  return aBrandRecord({
    version: 3,
    websiteUrl: `https://${token}.example.com`,
    profileImg: `http://localhost:4003/files/brand/profile-img/${token}.svg?v=1`,
    socials: { x: `https://x.com/${token}`, instagram: '', threads: '', discord: '' },
    ...overrides,
  });
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
