/**
 * One brand of the console's lookup (docs/console.md): a DecisionRow with the brand's company,
 * username and Verified badge, the moderator's "Verify" / "Remove verification" besides the
 * suspension, "Show contact details" (its members, with a reason; an audit entry each time) and, for
 * administrators only, the brand's flag as a switch ("Agency").
 */
import type { BrandRecord } from '@raly/contracts/records';
import { Button } from '@/components/ui/button';
import { VerifiedBadge } from '@/components/offers/offer-card';
import { publicUrlPrefixes } from '@/config/public-urls';
import type { RowState } from '@/features/console/components/account-lookup';
import { DecisionRow } from '@/features/console/components/decision-row';

/** A change a staff member asks for on one brand. */
export type BrandAction =
  | { kind: 'verification'; isVerified: boolean }
  | { kind: 'suspension'; suspended: boolean }
  | { kind: 'flags'; isAgency: boolean };

export interface BrandRowProps extends RowState<BrandAction> {
  brand: BrandRecord;
  /** Whether the staff member is an administrator (raly-admin): only they see the flags. */
  canSetFlags: boolean;
}

export function BrandRow({
  brand,
  running,
  problem,
  canSetFlags,
  onAction,
  ...contactView
}: BrandRowProps) {
  const { isVerified, isSuspended, isAgency } = brand.permissions;
  return (
    <DecisionRow
      id={brand.id}
      name={brand.company}
      badges={isVerified && <VerifiedBadge />}
      profileUrl={`${publicUrlPrefixes.brand}${encodeURIComponent(brand.username)}`}
      handle={`@${brand.username}`}
      isSuspended={isSuspended}
      running={running}
      problem={problem}
      canSetFlags={canSetFlags}
      {...contactView}
      flags={[
        {
          label: 'Agency',
          checked: isAgency,
          onChange: (checked) => onAction({ kind: 'flags', isAgency: checked }),
        },
      ]}
      onSuspension={(suspended) => onAction({ kind: 'suspension', suspended })}
    >
      <Button
        variant={isVerified ? 'secondary' : 'primary'}
        busy={running === 'verification'}
        disabled={running !== undefined}
        onClick={() => onAction({ kind: 'verification', isVerified: !isVerified })}
      >
        {isVerified ? 'Remove verification' : 'Verify'}
      </Button>
    </DecisionRow>
  );
}
