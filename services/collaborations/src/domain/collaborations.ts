/**
 * Collaborations (docs/product-spec.md "Collaborations"): an application
 * the brand accepted opens one, once, on the terms frozen from the
 * application's snapshot; its parties list and read theirs.
 */
import { randomUUID } from 'node:crypto';
import {
  COLLABORATIONS_PAGE_SIZE_MAX,
  type CollaborationRecord,
  type CollaborationTerms,
} from '@raly/contracts/collaborations';
import type { Envelope } from '@raly/contracts/events';
import type { ApplicationRecord } from '@raly/contracts/offers';
import type { Caller } from '@raly/service-kit/auth';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationOpenedEvent } from './events';
import { collaborationOfParty } from './parties';
import { openingWork } from './work';

/**
 * The terms an application was accepted on: its offer's deliverables and
 * compensation, and the creator's proposed rate; null when the snapshot
 * does not carry its offer's terms.
 */
function termsOf(application: ApplicationRecord): CollaborationTerms | null {
  const { deliverables, compensation } = application.offer;
  if (deliverables === undefined || compensation === undefined) return null;
  return { deliverables, compensation, agreedRate: application.proposedRate };
}

/**
 * Handles `offers.application.created|updated`: an accepted application
 * opens its collaboration (`collaborations.collaboration.opened`); any other
 * status, a redelivery or a later version of it opens nothing.
 */
export async function openCollaborationOfApplication(
  dependencies: CollaborationsDependencies,
  event: Envelope<ApplicationRecord>,
): Promise<void> {
  const application = event.data;
  if (application.status !== 'accepted') return;
  const terms = termsOf(application);
  const { opened, collaboration } = await dependencies.collaborations.openOnce(
    {
      id: randomUUID(),
      applicationId: application.id,
      offerId: application.offerId,
      offerTitle: application.offer.title,
      brandId: application.brandId,
      brand: application.offer.brand,
      creatorId: application.creatorId,
      creatorUsername: application.creator.username,
      creatorProfileImg: application.creator.profileImg,
      terms,
      work: openingWork(terms, new Date()),
    },
    collaborationOpenedEvent,
  );
  if (opened)
    dependencies.logger.info(
      { collaborationId: collaboration.id, applicationId: application.id },
      'collaboration opened',
    );
}

/**
 * `GET /collaborations`: the caller's collaborations (a creator's own, a
 * brand member's brand's), newest activity first, at most
 * COLLABORATIONS_PAGE_SIZE_MAX.
 * @throws AppError unavailable when identity-profile cannot be reached
 */
export async function myCollaborations(
  dependencies: CollaborationsDependencies,
  caller: Caller,
): Promise<CollaborationRecord[]> {
  const brandId = await dependencies.identity.brandOf(caller.accessToken);
  return dependencies.collaborations.listFor(
    brandId ? { brandId } : { creatorId: caller.userId },
    COLLABORATIONS_PAGE_SIZE_MAX,
  );
}

/**
 * `GET /collaborations/:id`, for its parties.
 * @throws AppError not-found messages.collaborationNotFound
 */
export async function getCollaboration(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
): Promise<CollaborationRecord> {
  return (await collaborationOfParty(dependencies, caller, collaborationId)).collaboration;
}
