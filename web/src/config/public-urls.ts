/**
 * Public URL prefixes of spec §1 (§1.3): shown next to a username, host
 * omitted, so the user sees where their public page lives; one for brands,
 * one for users (creators); spelled only here. Showing them in the forms
 * that have a username field is our choice.
 *
 * - brand profile form (/settings/brand): `/brand/<username>`
 * - account form (/settings/account, creators): `/user/<username>`
 */
export const publicUrlPrefixes = {
  brand: '/brand/',
  user: '/user/',
} as const;
