/**
 * Offers through the BFF (docs/api.md "Offers"): the feed, one
 * offer with its brand's public profile and the caller's own application,
 * and the brand members' commands (create, edit, open, close) and list.
 * services/offers decides who may do what and answers with the offer's
 * snapshot; every snapshot a command answers goes through `applySnapshot`,
 * so the brand's tabs and the matching creators get it live at once
 * (docs/adr/0007). The brand id of "my brand" always comes from the
 * caller's user record, never from the request.
 */
import { messages } from '@raly/contracts/messages';
import {
  offersQuerySchema,
  type ApplicationRecord,
  type BrandOffer,
  type OfferDetail,
  type OfferRecord,
  type Page,
} from '@raly/contracts/offers';
import { isBrandUser } from '@raly/contracts/records';
import { firstErrorByField } from '@raly/contracts/validation';
import type { Caller } from '@raly/service-kit/auth';
import type { OffersClient } from '../data-access/offers-client';
import { myBrandId, type BrandDependencies } from './brands';
import { bffErrors } from './errors';
import { findMyUser } from './me';
import { publicBrandOf } from './public-profiles';
import { answerWithNewest } from './record-store';

export interface OffersDependencies extends BrandDependencies {
  offers: OffersClient;
}

/**
 * GET /api/offers: one page of open offers, the caller's interests first.
 * @param query the request's query string (`OffersQuery`: interest, platform, q, page, pageSize)
 * @throws AppError invalid-argument 'There was a problem with your request.' (with the
 *   fields) for a bad filter, page or pageSize; as the offers service answered
 */
export async function listOffers(
  dependencies: Pick<OffersDependencies, 'offers'>,
  caller: Caller,
  query: unknown,
): Promise<Page<OfferRecord>> {
  const parsed = offersQuerySchema.safeParse(query ?? {});
  if (!parsed.success)
    throw bffErrors.invalidArgument(messages.requestProblem, firstErrorByField(parsed.error));
  return dependencies.offers.listOffers(caller.accessToken, parsed.data);
}

/**
 * GET /api/offers/:id: the offer, its brand's public profile (the read
 * model's brand, else the brand service's public profile, else what the
 * offer knows of its brand) and the caller's own application to it, if any
 * (always null for a brand user, who cannot apply).
 * @throws AppError as the offers service answered (404 offerNotFound for an unknown offer or another brand's draft)
 */
export async function getOfferDetail(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
): Promise<OfferDetail> {
  const offer = await dependencies.offers.getOffer(caller.accessToken, offerId);
  const [brand, myApplication] = await Promise.all([
    brandProfileOf(dependencies, offer),
    myApplicationTo(dependencies, caller, offer.id),
  ]);
  return { offer, brand, myApplication };
}

/** The offer brand's public profile: read model, else brand's public read, else the offer's `BrandSummary` with empty extras. */
async function brandProfileOf(
  dependencies: OffersDependencies,
  offer: OfferRecord,
): Promise<OfferDetail['brand']> {
  const brand =
    (await dependencies.records.get('brand', offer.brandId)) ??
    (await dependencies.brands.getPublicBrand(offer.brand.username));
  if (brand) return publicBrandOf(brand);
  const { id, username, company, profileImg, isVerified } = offer.brand;
  return {
    id,
    username,
    company,
    profileImg,
    isVerified,
    websiteUrl: '',
    coverImg: '',
    bio: '',
    socials: { x: '', instagram: '', threads: '', discord: '' },
  };
}

/** The caller's newest application to the offer, or null (brand users and unknown users: null, without asking offers). */
async function myApplicationTo(
  dependencies: OffersDependencies,
  caller: Caller,
  offerId: string,
): Promise<ApplicationRecord | null> {
  const me = await findMyUser(dependencies, caller);
  if (!me || isBrandUser(me)) return null;
  const mine = await dependencies.offers.listMyApplications(caller.accessToken);
  const toThisOffer = mine
    .filter((application) => application.offerId === offerId)
    .sort((a, b) => b.created.localeCompare(a.created));
  return toThisOffer[0] ?? null;
}

/**
 * GET /api/brand/offers: every offer of the caller's brand, with its applications by status.
 * @throws AppError permission-denied for a user without a brand; as the offers service answered
 */
export async function listMyBrandOffers(
  dependencies: OffersDependencies,
  caller: Caller,
): Promise<BrandOffer[]> {
  const brandId = await myBrandId(dependencies, caller);
  return dependencies.offers.listBrandOffers(caller.accessToken, brandId);
}

/** The offer commands of a brand member, each answered by the offer's snapshot. */
export type OfferCommand =
  | { kind: 'create'; form: unknown }
  | { kind: 'update'; offerId: string; changes: unknown }
  | { kind: 'open'; offerId: string }
  | { kind: 'close'; offerId: string };

/**
 * POST /api/offers, PATCH /api/offers/:id, POST /api/offers/:id/open|close:
 * the offers service applies the command (members of the offer's brand
 * only; the form's rules, `offerFormSchema`), its snapshot goes through
 * `applySnapshot` (pushed to the brand's room and, unless a draft, to the
 * rooms of the offer's interests) and the newest known offer is answered.
 * @throws AppError as the offers service answered (400 with fields, 403, 404, 409)
 */
export async function runOfferCommand(
  dependencies: Pick<OffersDependencies, 'offers' | 'records'>,
  caller: Caller,
  command: OfferCommand,
): Promise<OfferRecord> {
  const { offers } = dependencies;
  const token = caller.accessToken;
  const answered = await (() => {
    switch (command.kind) {
      case 'create':
        return offers.createOffer(token, command.form);
      case 'update':
        return offers.updateOffer(token, command.offerId, command.changes);
      case 'open':
        return offers.openOffer(token, command.offerId);
      case 'close':
        return offers.closeOffer(token, command.offerId);
    }
  })();
  return answerWithNewest(dependencies.records, 'offer', answered);
}
