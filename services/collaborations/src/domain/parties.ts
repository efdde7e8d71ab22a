/**
 * Who may act on a collaboration: its creator, and the members of its brand
 * (`partyOf` of @raly/contracts/collaborations). The brand a caller acts for
 * is read from identity-profile with the caller's own token, only when the
 * caller is not the collaboration's creator; anyone who is not a party is
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
