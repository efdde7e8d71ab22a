/**
 * identity-profile as the collaborations service calls it: the caller's own
 * record (`GET /users/me` with the caller's access token, docs/api.md), for
 * the brand a brand-side caller acts for, and `GET /users/me/handle` for the
 * handle a brand member's messages carry. The service keeps no copy of users;
 * it remembers each token's brand and handle briefly ({@link IdentityClientOptions}).
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { messages } from '@raly/contracts/messages';
import { userRecordSchema } from '@raly/contracts/records';
import { callHttp, dataOf } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';

export interface IdentityClient {
  /**
   * The brand the caller is a member of, from `GET /users/me` as the caller
   * (or its remembered answer for this token).
   * @param accessToken the caller's access token, forwarded unchanged
   * @returns the brand's id, or null for a creator
   * @throws AppError unavailable (503) when identity-profile cannot be reached; its error, passed through, otherwise
   */
  brandOf(accessToken: string): Promise<string | null>;
  /**
   * The remembered answer of {@link brandOf} for this token, without asking.
   * @returns the brand's id, null for a creator, undefined when not remembered
   */
  knownBrandOf(accessToken: string): string | null | undefined;
  /**
   * The caller's handle in their brand's team, from `GET /users/me/handle` as
   * the caller (or its remembered answer for this token, as long as a brand).
   * @returns the handle, or null for a member without one (and for a creator)
   * @throws AppError unavailable (503) when identity-profile cannot be reached; its error, passed through, otherwise
   */
  memberHandleOf(accessToken: string): Promise<string | null>;
  /**
   * The remembered answer of {@link memberHandleOf} for this token, without asking.
   * @returns the handle, null for none, undefined when not remembered
   */
  knownMemberHandleOf(accessToken: string): string | null | undefined;
}

const memberHandleSchema = z.object({ handle: z.string().nullable() });

/** How long answers are remembered (IDENTITY_BRAND_CACHE_MS, ../config). */
export interface IdentityClientOptions {
  /**
   * How long the brand of a token is remembered, in ms; 0 remembers nothing. A member
   * who leaves a brand may still act for it this long with a token already used.
   */
  brandCacheMs: number;
  /** Tokens remembered at most (the least recently used go first); default 10,000. */
  brandCacheMax?: number;
}

/** A remembered answer: the brand's id, or null for a caller with no brand (a creator). */
interface KnownBrand {
  brandId: string | null;
}

/** @param identityUrl IDENTITY_URL */
export function createIdentityClient(
  identityUrl: string,
  options: IdentityClientOptions = { brandCacheMs: 0 },
): IdentityClient {
  const { brandCacheMs, brandCacheMax = 10_000 } = options;
  // Keyed by the whole token: a token names one user, and it ends within minutes.
  const known =
    brandCacheMs > 0
      ? new LRUCache<string, KnownBrand>({ max: brandCacheMax, ttl: brandCacheMs })
      : undefined;
  const knownHandles =
    brandCacheMs > 0
      ? new LRUCache<string, { handle: string | null }>({ max: brandCacheMax, ttl: brandCacheMs })
      : undefined;
  return {
    async brandOf(accessToken) {
      const remembered = known?.get(accessToken);
      if (remembered) return remembered.brandId;
      const answer = await callHttp(serviceUrl(identityUrl, ['users', 'me']), {
        method: 'GET',
        target: 'identity-profile',
        bearer: accessToken,
        unreachable: 'unavailable',
      });
      const brandId =
        userRecordSchema.parse(dataOf(answer, messages.genericProblem)).brand?.id ?? null;
      known?.set(accessToken, { brandId });
      return brandId;
    },
    knownBrandOf(accessToken) {
      return known?.get(accessToken)?.brandId;
    },
    async memberHandleOf(accessToken) {
      const remembered = knownHandles?.get(accessToken);
      if (remembered) return remembered.handle;
      const answer = await callHttp(serviceUrl(identityUrl, ['users', 'me', 'handle']), {
        method: 'GET',
        target: 'identity-profile',
        bearer: accessToken,
        unreachable: 'unavailable',
      });
      const { handle } = memberHandleSchema.parse(dataOf(answer, messages.genericProblem));
      knownHandles?.set(accessToken, { handle });
      return handle;
    },
    knownMemberHandleOf(accessToken) {
      return knownHandles?.get(accessToken)?.handle;
    },
  };
}
