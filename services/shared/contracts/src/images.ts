/**
 * Images of spec §3, §5, §7, §9: who owns one, which kind it is, where it is
 * stored (the exact keys of spec §7), which types are accepted, and the
 * initials a default picture shows. Shared by services/media (which stores
 * them), the owning services and the web app.
 */
import { z } from 'zod';
import { IMAGE_EXTENSIONS, INITIALS_MAX_LETTERS } from './constants';

export const imageOwnerTypes = ['user', 'brand'] as const;
export type ImageOwnerType = (typeof imageOwnerTypes)[number];
export const imageOwnerTypeSchema = z.enum(imageOwnerTypes);

/** `profile` sets the record's profileImg, `cover` its coverImg. */
export const imageKinds = ['profile', 'cover'] as const;
export type ImageKind = (typeof imageKinds)[number];
export const imageKindSchema = z.enum(imageKinds);

export type ImageExtension = (typeof IMAGE_EXTENSIONS)[number];

/** The content type each accepted extension must really be (checked against the bytes). */
export const contentTypeByExtension: Record<ImageExtension, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  svg: 'image/svg+xml',
  webp: 'image/webp',
};

/** True when `value` (lowercase, no dot) is an accepted image extension (spec §9). */
export function isImageExtension(value: string): value is ImageExtension {
  return (IMAGE_EXTENSIONS as readonly string[]).includes(value);
}

/**
 * The storage key of spec §7: `user/profile-img/{uid}.{ext}`,
 * `user/cover-img/{uid}.{ext}`, `brand/profile-img/{brandId}.{ext}`,
 * `brand/cover-img/{brandId}.{ext}`.
 * @param ownerId the user id (Keycloak `sub`) or the brand id
 * @param extension lowercase, without the dot
 */
export function imageKey(
  ownerType: ImageOwnerType,
  kind: ImageKind,
  ownerId: string,
  extension: ImageExtension,
): string {
  return `${ownerType}/${kind}-img/${ownerId}.${extension}`;
}

/**
 * The initials a default picture shows (spec §3, §9): the first letter or
 * digit of each of the first two words, uppercased, so at most two
 * characters. A single word gives one letter (a creator's username `anna99`
 * gives `A`); no letters at all gives `?`.
 * @param name a person's "first last" name, a company name or a username
 */
export function initialsOf(name: string): string {
  const initials = name
    .trim()
    .split(/\s+/)
    .map((word) => /[\p{L}\p{N}]/u.exec(word)?.[0] ?? '')
    .filter(Boolean)
    .slice(0, INITIALS_MAX_LETTERS)
    .join('')
    .toUpperCase();
  return initials || '?';
}
