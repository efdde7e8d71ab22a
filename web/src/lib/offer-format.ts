/**
 * How offers and applications read on screen: amounts from integer
 * minor units with Intl.NumberFormat, the apply-by date (a date input in the
 * form, an ISO date-time at the end of that day on the wire), places left,
 * and the labels of platforms, statuses and who decided. Pure functions, shared by the
 * offers screens, the public profiles and the dashboard.
 */
import type {
  ApplicationRecord,
  ApplicationStatus,
  Compensation,
  Currency,
  Money,
  OfferPlatform,
  OfferRecord,
  OfferStatus,
} from '@raly/contracts/offers';

/** The locale amounts and dates are shown in: the browser's (undefined = its default). */
const displayLocale: string | undefined = undefined;

/** @returns the digits after the decimal point of `currency` (2 for USD, EUR and GBP) */
export function fractionDigitsOf(currency: Currency): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/**
 * @param money integer minor units (cents) and the currency
 * @returns the amount as the locale writes it, e.g. '$1,250.00'
 */
export function formatMoney({ amountMinor, currency }: Money, locale = displayLocale): string {
  const digits = fractionDigitsOf(currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amountMinor / 10 ** digits);
}

/** @returns what a compensation pays: the formatted fee, or 'Product: <description>' */
export function compensationText(compensation: Compensation, locale = displayLocale): string {
  return compensation.kind === 'fixed'
    ? formatMoney(compensation, locale)
    : `Product: ${compensation.description}`;
}

/**
 * Reads an amount typed in major units ('1250', '1,250.5', '12.50').
 * @returns the integer minor units, or NaN when the text is empty or not an
 *   amount with at most the currency's decimals (the form's rule then says so)
 */
export function toMinorUnits(text: string, currency: Currency): number {
  const digits = fractionDigitsOf(currency);
  const cleaned = text.trim().replace(/[,\s]/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match || (match[2] ?? '').length > digits) return Number.NaN;
  const fraction = (match[2] ?? '').padEnd(digits, '0');
  return Number(match[1]) * 10 ** digits + Number(fraction || '0');
}

/** @returns minor units written in major units for an input, e.g. 125000 USD → '1250.00' */
export function toMajorUnitsText(amountMinor: number, currency: Currency): string {
  const digits = fractionDigitsOf(currency);
  return (amountMinor / 10 ** digits).toFixed(digits);
}

/**
 * The apply-by date input's value ('YYYY-MM-DD') as the ISO date-time at the
 * end of that day in the browser's time zone (23:59:59.999).
 * @returns the ISO string (UTC, 'Z'), or '' when the input is empty or not a date
 */
export function endOfDayIso(dateInput: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateInput.trim());
  if (!match) return '';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(year, month - 1, day, 23, 59, 59, 999);
  if (end.getFullYear() !== year || end.getMonth() !== month - 1 || end.getDate() !== day)
    return '';
  return end.toISOString();
}

/** @returns the date input's value ('YYYY-MM-DD', browser time zone) for an ISO date-time, '' when invalid */
export function dateInputOf(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** @returns an ISO date-time as a medium date, e.g. 'Dec 31, 2026' */
export function formatDate(iso: string, locale = displayLocale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));
}

/** @returns the places still open on the offer (never below 0) */
export function placesLeftOf(offer: Pick<OfferRecord, 'creatorsWanted' | 'placesFilled'>): number {
  return Math.max(0, offer.creatorsWanted - offer.placesFilled);
}

/** The platforms as they are named on screen. */
export const platformLabels: Record<OfferPlatform, string> = {
  x: 'X',
  instagram: 'Instagram',
  threads: 'Threads',
};

/** The application statuses as they read on screen. */
export const applicationStatusLabels: Record<ApplicationStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

/**
 * Who on the brand's side accepted or declined an application, as the
 * brand's members read it next to its status (docs/product-spec.md §13.2):
 * "Accepted by sam", "Declined by sam", by the member's team handle.
 * @returns the label, or null when no member is named (pending, withdrawn, a member without a
 *   handle, a decision made before it was recorded, and always for the applicant)
 */
export function decidedByLabel(
  application: Pick<ApplicationRecord, 'status' | 'decidedBy'>,
): string | null {
  const { status, decidedBy } = application;
  if (!decidedBy || (status !== 'accepted' && status !== 'declined')) return null;
  return `${applicationStatusLabels[status]} by ${decidedBy.memberHandle}`;
}

/** The offer statuses as they read on screen. */
export const offerStatusLabels: Record<OfferStatus, string> = {
  draft: 'Draft',
  open: 'Open',
  closed: 'Closed',
};
