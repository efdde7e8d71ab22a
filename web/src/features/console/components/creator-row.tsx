/**
 * One creator of the console's lookup (docs/console.md): a DecisionRow with the creator's
 * @username (a link to their public page), "Suspend" / "Lift suspension" and, for administrators
 * only, the creator's flags as switches ("Boosted", "Ambassador"). The lookup's answer holds no
 * contact detail; "Show contact details" asks for them, with a reason (an audit entry each time).
 */
import type { ConsoleCreator } from '@raly/contracts/internal';
import { publicUrlPrefixes } from '@/config/public-urls';
import type { RowState } from '@/features/console/components/account-lookup';
import { DecisionRow } from '@/features/console/components/decision-row';

/** A change a staff member asks for on one creator. */
export type CreatorAction =
  | { kind: 'suspension'; suspended: boolean }
  | { kind: 'flags'; isBoosted?: boolean; isAmbassador?: boolean };

export interface CreatorRowProps extends RowState<CreatorAction> {
  creator: ConsoleCreator;
  /** Whether the staff member is an administrator (raly-admin): only they see the flags. */
  canSetFlags: boolean;
}

export function CreatorRow({
  creator,
  running,
  problem,
  canSetFlags,
  onAction,
  ...contactView
}: CreatorRowProps) {
  const { isSuspended, isBoosted, isAmbassador } = creator.permissions;
  return (
    <DecisionRow
      id={creator.id}
      name={`@${creator.username}`}
      profileUrl={`${publicUrlPrefixes.user}${encodeURIComponent(creator.username)}`}
      handle="Public profile"
      isSuspended={isSuspended}
      running={running}
      problem={problem}
      canSetFlags={canSetFlags}
      {...contactView}
      flags={[
        {
          label: 'Boosted',
          checked: isBoosted,
          onChange: (checked) => onAction({ kind: 'flags', isBoosted: checked }),
        },
        {
          label: 'Ambassador',
          checked: isAmbassador,
          onChange: (checked) => onAction({ kind: 'flags', isAmbassador: checked }),
        },
      ]}
      onSuspension={(suspended) => onAction({ kind: 'suspension', suspended })}
    />
  );
}
