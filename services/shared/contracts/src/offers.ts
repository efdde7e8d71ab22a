/**
 * Offers and applications (spec §1 "Brands can post offers"): the
 * rules of the offer and application forms as zod schemas, shared by the web
 * forms and services/offers so both answer a rule with the same message
 * (`./messages`), and the shapes of the offer and application snapshots that
 * travel on `offers.offer.v1` / `offers.application.v1`, through the BFF and
 * to the browser.
 *
 * Privacy (spec preamble): nothing here carries a first name, last name or
 * e-mail. An application names its creator by their public profile only.
 */
import { z } from 'zod';
import { INTERESTS } from './constants';
import { messages } from './messages';
import { boundedText, multilineText } from './validation';

export const OFFER_TITLE_MIN_LENGTH = 8;
export const OFFER_TITLE_MAX_LENGTH = 80;
export const OFFER_BRIEF_MIN_LENGTH = 32;
export const OFFER_BRIEF_MAX_LENGTH = 2000;
export const OFFER_DELIVERABLES_MAX_LENGTH = 1000;
export const PRODUCT_DESCRIPTION_MAX_LENGTH = 500;
export const CREATORS_WANTED_MIN = 1;
export const CREATORS_WANTED_MAX = 100;
/** The largest amount, in minor units (cents): 1,000,000.00. */
export const AMOUNT_MAX_MINOR = 100_000_000;
export const PITCH_MIN_LENGTH = 32;
export const PITCH_MAX_LENGTH = 500;
/** Longest free-text search of the offers feed. */
export const OFFER_SEARCH_MAX_LENGTH = 100;
export const OFFERS_PAGE_SIZE_DEFAULT = 20;
export const OFFERS_PAGE_SIZE_MAX = 50;
/** The last page a list may ask for (deep paging is refused, not slow). */
export const OFFERS_PAGE_MAX = 500;

/** Platforms an offer can ask for (the social handles of spec §3). */
export const OFFER_PLATFORMS = ['x', 'instagram', 'threads'] as const;
export type OfferPlatform = (typeof OFFER_PLATFORMS)[number];

/** ISO 4217 currencies an amount can be in. */
export const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** `draft → open → closed`; only `open` offers take applications. */
export const OFFER_STATUSES = ['draft', 'open', 'closed'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
/** Why an offer closed: the brand closed it, its apply-by date passed, or every place was filled. */
export const OFFER_CLOSED_REASONS = ['brand', 'deadline', 'filled'] as const;
export type OfferClosedReason = (typeof OFFER_CLOSED_REASONS)[number];

/** `pending → accepted | declined`, or `withdrawn` by the creator while pending. */
export const APPLICATION_STATUSES = ['pending', 'accepted', 'declined', 'withdrawn'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** An amount of money: integer minor units (cents) and a currency. */
export const moneySchema = z.object({
  amountMinor: z
    .number(messages.compensationAmountInvalid)
    .int(messages.compensationAmountInvalid)
    .min(1, messages.compensationAmountInvalid)
    .max(AMOUNT_MAX_MINOR, messages.compensationAmountTooLarge),
  currency: z.enum(CURRENCIES, messages.compensationCurrencyInvalid),
});
export type Money = z.infer<typeof moneySchema>;

/** A fixed fee, or the product only (with what the product is). */
export const compensationSchema = z.discriminatedUnion('kind', [
  moneySchema.extend({ kind: z.literal('fixed') }),
  z.object({
    kind: z.literal('product'),
    description: boundedText(PRODUCT_DESCRIPTION_MAX_LENGTH, messages.compensationProductTooLong)
      .trim()
      .min(1, messages.compensationProductRequired),
  }),
]);
export type Compensation = z.infer<typeof compensationSchema>;

/**
 * An apply-by date: an ISO 8601 date-time (with offset) later than now.
 * The check reads the clock when it runs, so a saved draft whose date has
 * since passed is refused when it is opened.
 */
export const applyBySchema = z
  .string(messages.applyByRequired)
  .min(1, messages.applyByRequired)
  .pipe(z.iso.datetime({ offset: true, message: messages.applyByRequired }))
  .refine((value) => Date.parse(value) > Date.now(), messages.applyByInFuture);

const offerFields = {
  title: boundedText(OFFER_TITLE_MAX_LENGTH, messages.offerTitleTooLong)
    .trim()
    .min(1, messages.offerTitleRequired)
    .min(OFFER_TITLE_MIN_LENGTH, messages.offerTitleTooShort),
  brief: multilineText()
    .trim()
    .min(1, messages.offerBriefRequired)
    .min(OFFER_BRIEF_MIN_LENGTH, messages.offerBriefTooShort)
    .max(OFFER_BRIEF_MAX_LENGTH, messages.offerBriefTooLong),
  interests: z
    .array(z.enum(INTERESTS))
    .min(1, messages.offerInterestsRequired)
    .max(INTERESTS.length)
    .refine((list) => new Set(list).size === list.length, messages.requestProblem),
  platforms: z
    .array(z.enum(OFFER_PLATFORMS))
    .min(1, messages.offerPlatformsRequired)
    .max(OFFER_PLATFORMS.length)
    .refine((list) => new Set(list).size === list.length, messages.requestProblem),
  deliverables: multilineText()
    .trim()
    .min(1, messages.offerDeliverablesRequired)
    .max(OFFER_DELIVERABLES_MAX_LENGTH, messages.offerDeliverablesTooLong),
  compensation: compensationSchema,
  creatorsWanted: z
    .number(messages.creatorsWantedRange)
    .int(messages.creatorsWantedRange)
    .min(CREATORS_WANTED_MIN, messages.creatorsWantedRange)
    .max(CREATORS_WANTED_MAX, messages.creatorsWantedRange),
  applyBy: applyBySchema,
};

/** The offer form (create and edit), every field required. */
export const offerFormSchema = z.strictObject(offerFields);
export type OfferForm = z.infer<typeof offerFormSchema>;

/** POST /offers: the form, saved as a draft unless `open` is true (then opened at once). */
export const createOfferSchema = offerFormSchema.extend({ open: z.boolean().optional() });
export type CreateOffer = z.infer<typeof createOfferSchema>;

/** PATCH /offers/:id: any fields of the form (a draft or an open offer; closed ones are final). */
export const updateOfferSchema = z.strictObject(offerFields).partial();
export type UpdateOffer = z.infer<typeof updateOfferSchema>;

/** POST /offers/:id/applications: a pitch and, optionally, the creator's proposed rate. */
export const applicationFormSchema = z.strictObject({
  pitch: multilineText()
    .trim()
    .min(1, messages.pitchRequired)
    .min(PITCH_MIN_LENGTH, messages.pitchTooShort)
    .max(PITCH_MAX_LENGTH, messages.pitchTooLong),
  proposedRate: moneySchema.nullable().optional(),
});
export type ApplicationForm = z.infer<typeof applicationFormSchema>;

/** One value or a list (a query string may repeat a key or join values with commas). */
const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => {
    if (value === undefined || value === '') return undefined;
    const list = Array.isArray(value) ? value : [value];
    return list.flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : [entry]));
  }, z.array(item).max(INTERESTS.length).optional());

const pageNumber = (max: number, fallback: number) =>
  z.coerce.number().int().min(1).max(max).optional().default(fallback);

/**
 * The query of the offers feed (GET /offers): filters by interest (any of)
 * and platform (any of), a free-text search in title, brief and brand, and
 * the page. Anything else in the query is ignored.
 */
export const offersQuerySchema = z.object({
  interest: listOf(z.enum(INTERESTS)),
  platform: listOf(z.enum(OFFER_PLATFORMS)),
  q: boundedText(OFFER_SEARCH_MAX_LENGTH, messages.valueTooLong).trim().optional(),
  page: pageNumber(OFFERS_PAGE_MAX, 1),
  pageSize: pageNumber(OFFERS_PAGE_SIZE_MAX, OFFERS_PAGE_SIZE_DEFAULT),
});
export type OffersQuery = z.infer<typeof offersQuerySchema>;

/** One page of a list. */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  /** How many items match, over every page. */
  total: number;
}

const isoDate = z.string();

/** What an offer or an application shows of its brand: public brand fields only. */
export const brandSummarySchema = z.object({
  id: z.string(),
  username: z.string(),
  company: z.string(),
  profileImg: z.string(),
  isVerified: z.boolean(),
});
export type BrandSummary = z.infer<typeof brandSummarySchema>;

/**
 * A creator's public profile (`/user/<username>`; what a brand sees of an
 * applicant): no first name, last name, e-mail or phone number, ever.
 */
export const publicCreatorProfileSchema = z.object({
  id: z.string(),
  username: z.string(),
  profileImg: z.string(),
  coverImg: z.string(),
  interests: z.array(z.enum(INTERESTS)),
  socials: z.object({ x: z.string(), instagram: z.string(), threads: z.string() }),
});
export type PublicCreatorProfile = z.infer<typeof publicCreatorProfileSchema>;

/**
 * The offer snapshot (topic `offers.offer.v1`, key = offer id): the whole
 * offer with its version and its brand's summary as the offers service knew
 * it when it wrote this version.
 */
export const offerRecordSchema = z.object({
  id: z.string(),
  version: z.number().int().nonnegative(),
  brandId: z.string(),
  brand: brandSummarySchema,
  title: z.string(),
  brief: z.string(),
  interests: z.array(z.enum(INTERESTS)),
  platforms: z.array(z.enum(OFFER_PLATFORMS)),
  deliverables: z.string(),
  compensation: compensationSchema,
  creatorsWanted: z.number().int(),
  /** Accepted applications so far; the offer closes (reason `filled`) when it reaches `creatorsWanted`. */
  placesFilled: z.number().int().nonnegative(),
  applyBy: isoDate,
  status: z.enum(OFFER_STATUSES),
  closedReason: z.enum(OFFER_CLOSED_REASONS).nullable(),
  created: isoDate,
  openedAt: isoDate.nullable(),
  closedAt: isoDate.nullable(),
});
export type OfferRecord = z.infer<typeof offerRecordSchema>;

/** Applications of one offer by status (the brand's list). */
export const applicationCountsSchema = z.object({
  pending: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  declined: z.number().int().nonnegative(),
  withdrawn: z.number().int().nonnegative(),
});
export type ApplicationCounts = z.infer<typeof applicationCountsSchema>;

/** An offer in its brand's own list: the snapshot plus its applications by status. */
export type BrandOffer = OfferRecord & { applicationCounts: ApplicationCounts };

/**
 * The application snapshot (topic `offers.application.v1`, key = application
 * id). It goes to the applicant and to the members of the offer's brand, so
 * it names the creator by public profile and the offer by title and brand;
 * `decidedBy` is for the brand's members only ({@link applicantViewOf}).
 */
export const applicationRecordSchema = z.object({
  id: z.string(),
  version: z.number().int().nonnegative(),
  offerId: z.string(),
  brandId: z.string(),
  creatorId: z.string(),
  /**
   * The offer as it stood when this version was written; `deliverables` and
   * `compensation` are the terms a collaboration freezes on acceptance
   * (absent only in snapshots written before they were added).
   */
  offer: z.object({
    id: z.string(),
    title: z.string(),
    brand: brandSummarySchema,
    deliverables: z.string().optional(),
    compensation: compensationSchema.optional(),
  }),
  creator: publicCreatorProfileSchema,
  pitch: z.string(),
  proposedRate: moneySchema.nullable(),
  status: z.enum(APPLICATION_STATUSES),
  created: isoDate,
  decidedAt: isoDate.nullable(),
  /**
   * Who on the brand's side accepted or declined it: `memberHandle`, the
   * member's handle in the brand's team as they decided (the name messages
   * use, docs/product-spec.md §13.2). Never a name or an e-mail. Absent while
   * pending, once withdrawn, when the member had no handle, and for
   * applications decided before it was recorded; never shown to the applicant.
   */
  decidedBy: z.object({ memberHandle: z.string() }).optional(),
});
export type ApplicationRecord = z.infer<typeof applicationRecordSchema>;

/**
 * An application as its applicant sees it: the brand's side, never which of
 * its members decided (docs/product-spec.md §13.2). The offers service answers
 * the applicant with it, and the BFF pushes it to the applicant's room.
 * @returns `application` without `decidedBy` (the same object when it has none)
 */
export function applicantViewOf(application: ApplicationRecord): ApplicationRecord {
  if (application.decidedBy === undefined) return application;
  const applicantView = { ...application };
  delete applicantView.decidedBy;
  return applicantView;
}

/**
 * A brand's public profile (`/brand/<username>`): the brand's public fields
 * and its open offers. No member's name or e-mail.
 */
export interface PublicBrandProfile {
  id: string;
  username: string;
  company: string;
  websiteUrl: string;
  profileImg: string;
  coverImg: string;
  bio: string;
  socials: { x: string; instagram: string; threads: string; discord: string };
  isVerified: boolean;
  /** Its open offers, newest first (at most one page). */
  offers: OfferRecord[];
}

/** GET /api/offers/:id: the offer, its brand's public profile, and the caller's own application if any. */
export interface OfferDetail {
  offer: OfferRecord;
  brand: Omit<PublicBrandProfile, 'offers'>;
  /** The signed-in creator's application to this offer, or null. */
  myApplication: ApplicationRecord | null;
}
