/**
 * Pure merge rules for live pushes (docs/api.md socket.io events): every
 * record carries a monotonically increasing `version`, and we keep the higher
 * one, so a late or replayed push never overwrites newer data.
 */
import type { Me } from '@raly/contracts/bff-api';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';

/**
 * Spec §4 profile loading: the profile is loaded once the user record is and,
 * for a brand user (`user.brand` set), once their brand record is too.
 * @param me the cached GET /api/me answer, undefined while none arrived
 * @returns true when every record the user's screens need is present
 */
export function isProfileLoaded(me: Me | undefined): me is Me {
  if (!me) return false;
  return !me.user.brand?.id || me.brand !== null;
}

/**
 * @returns true when `incoming` should replace `current` (no current record,
 *   or a strictly higher version)
 */
export function isNewer(
  current: { version: number } | null | undefined,
  incoming: { version: number },
): boolean {
  return !current || incoming.version > current.version;
}

/**
 * Applies a `user.updated` push.
 * @returns `me` itself when the push is stale or for another user, else a copy with the new user
 */
export function applyUserUpdated(me: Me, user: UserRecord): Me {
  if (user.id !== me.user.id || !isNewer(me.user, user)) return me;
  return { ...me, user };
}

/**
 * Applies a `brand.updated` push.
 * @returns `me` itself when the push is stale or for a brand the user does
 *   not belong to, else a copy with the new brand
 */
export function applyBrandUpdated(me: Me, brand: BrandRecord): Me {
  const brandId = me.brand?.id ?? me.user.brand?.id;
  if (brand.id !== brandId || !isNewer(me.brand, brand)) return me;
  return { ...me, brand };
}

/**
 * Merges an answer of the BFF (e.g. PATCH /api/me) into what the cache holds,
 * record by record, keeping the higher version of each.
 */
export function mergeMe(current: Me, incoming: Me): Me {
  const withUser = applyUserUpdated(current, incoming.user);
  return incoming.brand ? applyBrandUpdated(withUser, incoming.brand) : withUser;
}
