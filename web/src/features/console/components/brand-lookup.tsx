/**
 * The console's brand lookup (docs/console.md): brands by the start of their username or a
 * part of their company (GET /api/console/brands), each a BrandRow in an AccountLookup:
 * "Verify" / "Remove verification" (PUT /api/console/brands/:id/verification, a reason of
 * 3–1000 characters), "Suspend" / "Lift suspension" (PUT /api/console/brands/:id/suspension, a
 * reason of 1–500 characters), "Show contact details" (POST /api/console/brands/:id/contact-view,
 * a reason of 3–500 characters; the members' names and e-mails, each view an audit entry) and, for
 * administrators, the "Agency" switch (PUT /api/console/brands/:id/flags, no reason: the route
 * takes the flag only).
 */
import type { BrandRecord } from '@raly/contracts/records';
import type { ConsoleApi } from '@/features/console/api/console-api';
import {
  AccountLookup,
  suspensionReasonProblem,
} from '@/features/console/components/account-lookup';
import { BrandRow, type BrandAction } from '@/features/console/components/brand-row';

/** Shortest reason the BFF takes for a verification decision. */
const MIN_VERIFICATION_REASON = 3;

/**
 * @returns why `reason` cannot go with `action` (the BFF's own rule and words for a suspension),
 *   or undefined when it can
 */
function reasonProblem(action: BrandAction, reason: string): string | undefined {
  if (action.kind === 'verification' && reason.length < MIN_VERIFICATION_REASON)
    return 'Give a reason for the decision (at least 3 characters).';
  if (action.kind === 'suspension') return suspensionReasonProblem(reason);
  return undefined;
}

/** Sends `action` on `brand` to the BFF with `reason`. @returns the brand as the BFF answered */
function send(api: ConsoleApi, brand: BrandRecord, action: BrandAction, reason: string) {
  switch (action.kind) {
    case 'verification':
      return api.setBrandVerification(brand.id, { isVerified: action.isVerified, reason });
    case 'suspension':
      return api.setBrandSuspension(brand.id, { suspended: action.suspended, reason });
    case 'flags':
      return api.setBrandFlags(brand.id, { isAgency: action.isAgency });
  }
}

/**
 * @param api the console's calls for the signed-in staff member
 * @param canSetFlags whether they are an administrator (raly-admin): only then the rows show flags
 */
export function BrandLookup({ api, canSetFlags }: { api: ConsoleApi; canSetFlags: boolean }) {
  return (
    <AccountLookup<BrandRecord, BrandAction>
      heading="Brands"
      searchLabel="Username or company"
      listLabel="Brands found"
      noMatch="No brand matches."
      reasonHint="Kept with each verification or suspension you decide (a suspension takes at most 500 characters)."
      reasonMaxLength={1000}
      queryProblem={(query) => (query ? undefined : 'Enter a username or company.')}
      reasonProblem={reasonProblem}
      find={(query) => api.findBrands(query)}
      send={(brand, action, reason) => send(api, brand, action, reason)}
      viewContacts={(brand, reason) => api.viewBrandContacts(brand.id, { reason })}
      renderRow={(brand, state) => (
        <BrandRow key={brand.id} brand={brand} canSetFlags={canSetFlags} {...state} />
      )}
    />
  );
}
