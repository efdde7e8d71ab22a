/**
 * Default pictures (spec §3, §9): at creation every user and brand gets an
 * SVG placeholder with at most two initials — of the company for a brand,
 * of "first last" for a brand's user, and of the username for a creator
 * (one word, so one letter: creators have no name). Made once per owner
 * (the images table remembers it), never over an uploaded image.
 */
import { imageKey, initialsOf, type ImageOwnerType } from '@raly/contracts/images';
import type { Envelope } from '@raly/contracts/events';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { downloadUrl, type MediaDependencies } from './dependencies';
import { imageStoredEvent } from './events';

const BACKGROUNDS = [
  '#6d28d9',
  '#2563eb',
  '#0891b2',
  '#059669',
  '#d97706',
  '#dc2626',
  '#db2777',
  '#4f46e5',
];

/**
 * The placeholder picture.
 * @param initials at most two letters (see `initialsOf`)
 * @param seed picks the background colour, e.g. the owner id
 * @returns a 256×256 SVG document
 */
export function renderInitialsSvg(initials: string, seed: string): string {
  let hash = 0;
  for (const character of seed) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  const background = BACKGROUNDS[hash % BACKGROUNDS.length];
  const text = initials.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="${text}">` +
    `<rect width="256" height="256" fill="${background}"/>` +
    `<text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="104" font-weight="600" fill="#ffffff">${text}</text>` +
    `</svg>`
  );
}

/** Handles `identity.user.created`: the user's initials picture. */
export async function makeUserDefaultImage(
  dependencies: MediaDependencies,
  event: Envelope<UserRecord>,
): Promise<void> {
  const user = event.data;
  if (user.profileImg !== '') return;
  const name = user.brand ? `${user.firstName} ${user.lastName}` : (user.username ?? '');
  await storeDefault(dependencies, 'user', user.id, name);
}

/** Handles `brand.brand.created`: the brand's initials picture. */
export async function makeBrandDefaultImage(
  dependencies: MediaDependencies,
  event: Envelope<BrandRecord>,
): Promise<void> {
  const brand = event.data;
  if (brand.profileImg !== '') return;
  await storeDefault(dependencies, 'brand', brand.id, brand.company);
}

async function storeDefault(
  dependencies: MediaDependencies,
  ownerType: ImageOwnerType,
  ownerId: string,
  name: string,
) {
  if (await dependencies.images.currentKey(ownerType, ownerId, 'profile')) return;
  const key = imageKey(ownerType, 'profile', ownerId, 'svg');
  const svg = Buffer.from(renderInitialsSvg(initialsOf(name), ownerId), 'utf8');
  const contentType = 'image/svg+xml';
  await dependencies.bucket.put(key, svg, contentType);
  await dependencies.images.recordDefault(
    { ownerType, ownerId, kind: 'profile', key, contentType, sizeBytes: svg.length },
    (storedKey, version) => downloadUrl(dependencies, storedKey, version),
    imageStoredEvent,
  );
}
