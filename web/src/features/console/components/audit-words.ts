/**
 * The staff audit log in plain words (docs/console.md "Audit log"): what each staff action reads
 * as, and an entry's settings (`details`) as "Boosted: on".
 */
import type { AuditEntry, StaffAction } from '@raly/contracts/audit';

/** What each staff action reads as in the console, e.g. 'brand.suspend' → "Suspended a brand". */
export const staffActionWords: Record<StaffAction, string> = {
  'brand.verify': 'Verified a brand',
  'brand.unverify': "Removed a brand's verification",
  'brand.suspend': 'Suspended a brand',
  'brand.lift-suspension': "Lifted a brand's suspension",
  'brand.flags': "Set a brand's flags",
  'creator.suspend': 'Suspended a creator',
  'creator.lift-suspension': "Lifted a creator's suspension",
  'creator.flags': "Set a creator's flags",
  'contact.view': 'Viewed contact details',
  'report.resolve': 'Resolved a report',
};

/** The names of the settings an entry may carry, as the console's switches call them. */
const settingNames: Record<string, string> = {
  isBoosted: 'Boosted',
  isAmbassador: 'Ambassador',
  isAgency: 'Agency',
  isVerified: 'Verified',
  isSuspended: 'Suspended',
};

/** What a setting's value reads as: a switch on or off, a text as is, nothing as "—". */
const valueWords = (value: AuditEntry['details'][string]): string =>
  value === true ? 'on' : value === false ? 'off' : (value ?? '—');

/**
 * @param details an entry's settings, e.g. `{ isBoosted: true }`
 * @returns each as "Boosted: on" (a setting the console has no name for under its own key), in
 *   the entry's order; empty when the action says all
 */
export function detailWords(details: AuditEntry['details']): string[] {
  return Object.entries(details).map(
    ([setting, value]) => `${settingNames[setting] ?? setting}: ${valueWords(value)}`,
  );
}
