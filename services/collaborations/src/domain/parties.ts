/**
 * Who may act on a collaboration: its creator, and the members of its brand
 * (`partyOf` of @raly/contracts/collaborations). The brand a caller acts for
 * is read from identity-profile with the caller's own token, only when the
 * caller is not the collaboration's creator (and remembered for that token
 * briefly, ../data-access/identity-client); anyone who is not a party is
 * told the collaboration does not exist.
 */
import {
  partyOf,
  type CollaborationParty,
  type CollaborationRecord,
} from '@raly/contracts/collaborations';
import type { Caller } from '@raly/service-kit/auth';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationsErrors } from './errors';

/** A collaboration and the side its caller is on. */
export interface PartyView {
  collaboration: CollaborationRecord;
  party: CollaborationParty;
}

/**
 * The collaboration as one of its parties reads it.
 * @throws AppError not-found messages.collaborationNotFound (unknown, or the caller is no party);
 *   unavailable when identity-profile cannot be reached
 */
export async function collaborationOfParty(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
): Promise<PartyView> {
  const collaboration = await dependencies.collaborations.findById(collaborationId);
  if (!collaboration) throw collaborationsErrors.collaborationNotFound();
  const brandId =
    caller.userId === collaboration.creatorId
      ? null
      : await dependencies.identity.brandOf(caller.accessToken);
  const party = partyOf(collaboration, { id: caller.userId, brandId });
  if (!party) throw collaborationsErrors.collaborationNotFound();
  return { collaboration, party };
}

/**
 * Raised while a collaboration is locked when the caller is not its creator
 * and the brand they act for is not known yet: the transaction rolls back,
 * the brand is asked outside it (no HTTP call holds a row lock), and the
 * work runs once more ({@link withPartyOf}).
 */
class BrandNotKnown extends Error {}

/**
 * The side a caller is on, decided on a collaboration (read under its lock).
 * @param brandId the brand the caller acts for (null: none); undefined when not known yet
 * @throws AppError not-found messages.collaborationNotFound when the caller is no party;
 *   BrandNotKnown when `brandId` is undefined and the caller is not the creator
 */
function partyOfCaller(
  collaboration: Pick<CollaborationRecord, 'creatorId' | 'brandId'>,
  caller: Caller,
  brandId: string | null | undefined,
): CollaborationParty {
  if (caller.userId === collaboration.creatorId) return 'creator';
  if (brandId === undefined) throw new BrandNotKnown();
  const party = partyOf(collaboration, { id: caller.userId, brandId });
  if (!party) throw collaborationsErrors.collaborationNotFound();
  return party;
}

/**
 * Runs `work` (typically one transaction that decides on the locked row)
 * with `partyOf`, the side the caller is on. The brand a caller acts for is
 * the one identity-profile told for this token a moment ago when remembered;
 * else, when `partyOf` finds the caller is not the creator, `work` is
 * abandoned (its error rolls it back), the brand is asked, and `work` runs
 * once more. A creator's own collaboration never asks identity-profile.
 * @returns what `work` returned
 * @throws AppError not-found messages.collaborationNotFound (from `partyOf`: the caller is
 *   no party); unavailable when identity-profile cannot be reached; what `work` throws
 */
export async function withPartyOf<T>(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  work: (
    partyOf: (
      collaboration: Pick<CollaborationRecord, 'creatorId' | 'brandId'>,
    ) => CollaborationParty,
  ) => Promise<T>,
): Promise<T> {
  const known = dependencies.identity.knownBrandOf(caller.accessToken);
  try {
    return await work((collaboration) => partyOfCaller(collaboration, caller, known));
  } catch (error) {
    if (!(error instanceof BrandNotKnown)) throw error;
  }
  const brandId = await dependencies.identity.brandOf(caller.accessToken);
  return work((collaboration) => partyOfCaller(collaboration, caller, brandId));
}
