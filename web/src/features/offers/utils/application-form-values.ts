/**
 * The Apply form's fields and how they map to
 * `applicationFormSchema`: a pitch and an optional proposed rate typed in
 * major units (sent in minor units; left empty, no rate is sent).
 */
import {
  CURRENCIES,
  applicationFormSchema,
  type ApplicationForm,
  type Currency,
} from '@raly/contracts/offers';
import { mappedZodResolver } from '@/lib/mapped-resolver';
import { toMinorUnits } from '@/lib/offer-format';

/** What the form's fields hold (text as typed). */
export interface ApplicationFormInput {
  pitch: string;
  /** Major units as typed; empty when the creator proposes no rate. */
  rateAmount: string;
  rateCurrency: Currency;
}

export const emptyApplicationFormInput: ApplicationFormInput = {
  pitch: '',
  rateAmount: '',
  rateCurrency: CURRENCIES[0],
};

/** @returns the form's input in the shape of `applicationFormSchema` (not yet checked) */
export function applicationCandidateOf(
  input: ApplicationFormInput,
): Record<keyof ApplicationForm, unknown> {
  return {
    pitch: input.pitch,
    proposedRate: input.rateAmount.trim()
      ? {
          amountMinor: toMinorUnits(input.rateAmount, input.rateCurrency),
          currency: input.rateCurrency,
        }
      : null,
  };
}

/** @returns the field a rule's issue (its path in `applicationFormSchema`) is shown under */
export function applicationFieldOf(path: readonly PropertyKey[]): keyof ApplicationFormInput {
  if (path[0] === 'proposedRate') return path[1] === 'currency' ? 'rateCurrency' : 'rateAmount';
  return 'pitch';
}

/** The Apply form's resolver: `applicationFormSchema`, its messages under the fields. */
export const applicationFormResolver = mappedZodResolver<ApplicationFormInput, ApplicationForm>(
  applicationFormSchema,
  applicationCandidateOf,
  applicationFieldOf,
);
