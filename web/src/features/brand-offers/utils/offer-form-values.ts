/**
 * The offer form's fields and how they map to `offerFormSchema`:
 * the amount is typed in major units and sent in minor units, the apply-by
 * date is a date input sent as the ISO date-time at the end of that day,
 * the compensation is a fixed amount with its currency or the product only
 * with its description.
 */
import type { Interest } from '@raly/contracts/constants';
import {
  CURRENCIES,
  offerFormSchema,
  type Currency,
  type OfferForm,
  type OfferPlatform,
  type OfferRecord,
} from '@raly/contracts/offers';
import { mappedZodResolver } from '@/lib/mapped-resolver';
import { dateInputOf, endOfDayIso, toMajorUnitsText, toMinorUnits } from '@/lib/offer-format';

export type CompensationKind = 'fixed' | 'product';

/** What the form's fields hold (text as typed). */
export interface OfferFormInput {
  title: string;
  brief: string;
  interests: Interest[];
  platforms: OfferPlatform[];
  deliverables: string;
  compensationKind: CompensationKind;
  /** Major units as typed, e.g. '1250.00'. */
  amount: string;
  currency: Currency;
  productDescription: string;
  creatorsWanted: string;
  /** The date input's value, 'YYYY-MM-DD'. */
  applyByDate: string;
}

/** The fields of a new offer. */
export const emptyOfferFormInput: OfferFormInput = {
  title: '',
  brief: '',
  interests: [],
  platforms: [],
  deliverables: '',
  compensationKind: 'fixed',
  amount: '',
  currency: CURRENCIES[0],
  productDescription: '',
  creatorsWanted: '1',
  applyByDate: '',
};

/** @returns the fields showing an existing offer (edit) */
export function offerFormInputOf(offer: OfferRecord): OfferFormInput {
  const { compensation } = offer;
  return {
    title: offer.title,
    brief: offer.brief,
    interests: [...offer.interests],
    platforms: [...offer.platforms],
    deliverables: offer.deliverables,
    compensationKind: compensation.kind,
    amount:
      compensation.kind === 'fixed'
        ? toMajorUnitsText(compensation.amountMinor, compensation.currency)
        : '',
    currency: compensation.kind === 'fixed' ? compensation.currency : CURRENCIES[0],
    productDescription: compensation.kind === 'product' ? compensation.description : '',
    creatorsWanted: String(offer.creatorsWanted),
    applyByDate: dateInputOf(offer.applyBy),
  };
}

/** @returns the form's input in the shape of `offerFormSchema` (not yet checked) */
export function offerCandidateOf(input: OfferFormInput): Record<keyof OfferForm, unknown> {
  return {
    title: input.title,
    brief: input.brief,
    interests: Array.isArray(input.interests) ? input.interests : [],
    platforms: Array.isArray(input.platforms) ? input.platforms : [],
    deliverables: input.deliverables,
    compensation:
      input.compensationKind === 'product'
        ? { kind: 'product', description: input.productDescription }
        : {
            kind: 'fixed',
            amountMinor: toMinorUnits(input.amount, input.currency),
            currency: input.currency,
          },
    creatorsWanted: input.creatorsWanted.trim() === '' ? Number.NaN : Number(input.creatorsWanted),
    applyBy: endOfDayIso(input.applyByDate),
  };
}

/** @returns the field of the form a rule's issue (its path in `offerFormSchema`) is shown under */
export function offerFieldOf(path: readonly PropertyKey[]): keyof OfferFormInput {
  const [first, second] = path;
  if (first === 'compensation') {
    if (second === 'amountMinor') return 'amount';
    if (second === 'currency') return 'currency';
    if (second === 'description') return 'productDescription';
    return 'compensationKind';
  }
  if (first === 'applyBy') return 'applyByDate';
  return (typeof first === 'string' ? first : 'title') as keyof OfferFormInput;
}

/** The offer form's resolver: `offerFormSchema`, its messages under the fields. */
export const offerFormResolver = mappedZodResolver<OfferFormInput, OfferForm>(
  offerFormSchema,
  offerCandidateOf,
  offerFieldOf,
);
