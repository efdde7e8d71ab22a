/**
 * Public URL prefixes of spec §1/§5: forms show them next to a username,
 * host omitted, so the user sees where their public page lives. One for
 * brands, one for users (creators); spelled only here.
 *
 * - brand profile form (/settings/brand): `/brand/<username>`
 * - account form (/settings/account, creators): `/user/<username>`
 */
export const publicUrlPrefixes = {
  brand: '/brand/',
  user: '/user/',
} as const;
