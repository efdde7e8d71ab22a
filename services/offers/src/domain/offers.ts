/**
 * Offers (spec §1 "Brands can post offers"): a brand's members
 * create them (as drafts, or open at once), edit them while draft or open,
 * open and close them; creators read the feed of open offers and one offer;
 * anyone reads a brand's open offers. Status `draft → open → closed`; an
 * offer closes when a member closes it (`brand`), when its apply-by date
 * passes (`deadline`, {@link closeExpiredOffers}) or when its last place is
 * filled (`filled`, ./applications.ts). Every change raises the offer's
 * snapshot in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import {
  createOfferSchema,
  OFFERS_PAGE_SIZE_MAX,
  offersQuerySchema,
  updateOfferSchema,
  type BrandOffer,
  type OfferRecord,
  type Page,
  type UpdateOffer,
} from '@raly/contracts/offers';
import type { Caller } from '@raly/service-kit/auth';
import { AppError } from '@raly/service-kit/errors';
import type { DecideOfferChange, OfferChanges } from '../data-access/offer-repository';
import { assertBrandNotSuspended, memberBrand } from './brands';
import type { OffersDependencies } from './dependencies';
import { offersErrors } from './errors';
import { offerCreatedEvent, offerUpdatedEvent } from './events';
import { callerUser, checkedCaller } from './users';

/**
 * The caller as a member of `brandId`.
 * @throws AppError permission-denied messages.notABrandMember
 */
export async function assertMember(
  dependencies: OffersDependencies,
  caller: Caller,
  brandId: string,
): Promise<void> {
  await checkedCaller(dependencies, caller, (user) =>
    user.brandId === brandId ? undefined : offersErrors.notABrandMember(),
  );
}

/** Whether the caller is a member of `brandId` (no refusal). */
async function isMember(dependencies: OffersDependencies, caller: Caller, brandId: string) {
  try {
    await assertMember(dependencies, caller, brandId);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'permission-denied') return false;
    throw error;
  }
}

/**
 * The offer a member manages: unknown, or a draft of another brand → 404;
 * another brand's open or closed offer → 403.
 * @throws AppError not-found messages.offerNotFound, permission-denied messages.notABrandMember
 */
async function offerOfMember(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
): Promise<OfferRecord> {
  const offer = await dependencies.offers.findById(offerId);
  if (!offer) throw offersErrors.offerNotFound();
  if (!(await isMember(dependencies, caller, offer.brandId))) {
    throw offer.status === 'draft' ? offersErrors.offerNotFound() : offersErrors.notABrandMember();
  }
  return offer;
}

/**
 * Changes an offer as `decide` says on the offer under its row lock, raising `offers.offer.updated`.
 * @throws AppError not-found; what `decide` throws
 */
async function changeOffer(
  dependencies: OffersDependencies,
  offerId: string,
  decide: DecideOfferChange,
): Promise<OfferRecord> {
  const changed = await dependencies.offers.changeWithEvent(offerId, decide, offerUpdatedEvent);
  if (!changed) throw offersErrors.offerNotFound();
  return changed;
}

/**
 * `POST /offers`: a new offer of the caller's brand, a draft or (`open: true`) open at once.
 * @param input `createOfferSchema`, unparsed
 * @returns the new OfferRecord (version 1)
 * @throws AppError invalid-argument (the form's messages), permission-denied
 *   (not a brand member; messages.brandSuspended when opening), unavailable
 */
export async function createOffer(
  dependencies: OffersDependencies,
  caller: Caller,
  input: unknown,
): Promise<OfferRecord> {
  const { open, ...form } = createOfferSchema.parse(input);
  const user = await checkedCaller(dependencies, caller, (candidate) =>
    candidate.brandId ? undefined : offersErrors.notABrandMember(),
  );
  const brandId = user.brandId!;
  await memberBrand(dependencies, brandId, caller);
  if (open) await assertBrandNotSuspended(dependencies, brandId, caller);
  return dependencies.offers.createWithEvent(
    { ...form, id: randomUUID(), brandId, status: open ? 'open' : 'draft' },
    offerCreatedEvent,
  );
}

/** The form fields that really change. */
function editedFields(current: OfferRecord, form: UpdateOffer): OfferChanges {
  const changes: OfferChanges = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const field of Object.keys(form) as (keyof UpdateOffer)[]) {
    const value = form[field];
    if (value === undefined) continue;
    if (field === 'applyBy') {
      if (Date.parse(value as string) !== Date.parse(current.applyBy))
        changes.applyBy = value as string;
    } else if (!same(value, current[field])) {
      Object.assign(changes, { [field]: value });
    }
  }
  return changes;
}

/**
 * `PATCH /offers/:id`: any fields of the form, while the offer is a draft or
 * open. The rules are checked again on the offer as it is under the row
 * lock: a closed offer is final, `creatorsWanted` never below the places
 * filled (and an open offer whose places are then all filled closes,
 * reason `filled`).
 * @param input `updateOfferSchema`, unparsed
 * @returns the offer after the change (same version when nothing changed)
 * @throws AppError invalid-argument, not-found, permission-denied, conflict messages.offerClosed
 */
export async function updateOffer(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
  input: unknown,
): Promise<OfferRecord> {
  const form = updateOfferSchema.parse(input);
  await offerOfMember(dependencies, caller, offerId);
  return changeOffer(dependencies, offerId, (current) => {
    if (current.status === 'closed') throw offersErrors.offerClosed();
    const changes = editedFields(current, form);
    if (Object.keys(changes).length === 0) return null;
    const wanted = changes.creatorsWanted ?? current.creatorsWanted;
    if (wanted < current.placesFilled) throw offersErrors.creatorsWantedBelowPlacesFilled();
    if (current.status === 'open' && wanted === current.placesFilled)
      Object.assign(changes, { status: 'closed', closedReason: 'filled', closed: true });
    return changes;
  });
}

/**
 * `POST /offers/:id/open`: a draft becomes open (an open offer stays as it is).
 * @throws AppError not-found, permission-denied (not a member; messages.brandSuspended),
 *   invalid-argument messages.applyByInFuture (the date has passed), conflict messages.offerClosed
 */
export async function openOffer(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
): Promise<OfferRecord> {
  const offer = await offerOfMember(dependencies, caller, offerId);
  if (offer.status === 'closed') throw offersErrors.offerClosed();
  await assertBrandNotSuspended(dependencies, offer.brandId, caller);
  return changeOffer(dependencies, offerId, (current) => {
    if (current.status === 'closed') throw offersErrors.offerClosed();
    if (current.status === 'open') return null;
    if (Date.parse(current.applyBy) <= Date.now()) throw offersErrors.applyByPassed();
    return { status: 'open', opened: true };
  });
}

/**
 * `POST /offers/:id/close`: a member closes a draft or open offer (reason `brand`).
 * @throws AppError not-found, permission-denied, conflict messages.offerClosed
 */
export async function closeOffer(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
): Promise<OfferRecord> {
  await offerOfMember(dependencies, caller, offerId);
  return changeOffer(dependencies, offerId, (current) => {
    if (current.status === 'closed') throw offersErrors.offerClosed();
    return { status: 'closed', closedReason: 'brand', closed: true };
  });
}

/**
 * A suspended brand's open offers close (reason `brand`, docs/console.md), each with its usual
 * `offers.offer.updated` snapshot. Idempotent: an offer closed meanwhile is left as it is, so a
 * redelivered event changes nothing.
 * @returns how many offers this call closed
 */
export async function closeOffersOfSuspendedBrand(
  dependencies: OffersDependencies,
  brandId: string,
): Promise<number> {
  const open = (await dependencies.offers.listByBrand(brandId)).filter(
    (offer) => offer.status === 'open',
  );
  let closed = 0;
  for (const offer of open) {
    await dependencies.offers.changeWithEvent(
      offer.id,
      (current) => {
        if (current.status !== 'open') return null;
        closed += 1;
        return { status: 'closed', closedReason: 'brand', closed: true };
      },
      offerUpdatedEvent,
    );
  }
  return closed;
}

/**
 * `GET /offers/:id`: any offer but a draft, which only its brand's members see.
 * @throws AppError not-found messages.offerNotFound
 */
export async function getOffer(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
): Promise<OfferRecord> {
  const offer = await dependencies.offers.findById(offerId);
  if (!offer) throw offersErrors.offerNotFound();
  if (offer.status === 'draft' && !(await isMember(dependencies, caller, offer.brandId)))
    throw offersErrors.offerNotFound();
  return offer;
}

/**
 * `GET /offers`: the feed of open offers (`offersQuerySchema`), those
 * matching the caller's interests first, then newest first.
 * @param query the query string, unparsed
 * @throws AppError invalid-argument
 */
export async function offersFeed(
  dependencies: OffersDependencies,
  caller: Caller,
  query: unknown,
): Promise<Page<OfferRecord>> {
  const parsed = offersQuerySchema.parse(query);
  const user = await callerUser(dependencies, caller);
  return dependencies.offers.feed({ ...parsed, q: parsed.q || undefined }, user.interests);
}

/**
 * `GET /brands/:brandId/offers`: every offer of the brand, for its members, with application counts.
 * @throws AppError permission-denied
 */
export async function brandOffers(
  dependencies: OffersDependencies,
  caller: Caller,
  brandId: string,
): Promise<BrandOffer[]> {
  await assertMember(dependencies, caller, brandId);
  return dependencies.offers.listByBrand(brandId);
}

/** `GET /public/brands/:brandId/offers`: the brand's open offers, newest first, one page at most. */
export async function publicBrandOffers(
  dependencies: OffersDependencies,
  brandId: string,
): Promise<OfferRecord[]> {
  return dependencies.offers.listOpenByBrand(brandId, OFFERS_PAGE_SIZE_MAX);
}

/**
 * The deadline sweep's step: closes (reason `deadline`) open offers whose
 * apply-by date has passed, in batches of `batchSize`, each batch with its
 * events in one transaction; offers another instance is closing are skipped.
 * @returns how many offers this call closed
 */
export async function closeExpiredOffers(
  dependencies: OffersDependencies,
  batchSize = 100,
): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < 10; batch += 1) {
    const closed = await dependencies.offers.closeExpiredWithEvents(batchSize, offerUpdatedEvent);
    total += closed.length;
    if (closed.length < batchSize) break;
  }
  return total;
}
