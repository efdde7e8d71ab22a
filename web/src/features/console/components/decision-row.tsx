/**
 * One account of a console lookup (docs/console.md), brand or creator: its name and handle (a link
 * to its public page), its Suspended state, "Suspend" / "Lift suspension", the row's own decisions
 * (`children`, e.g. a brand's "Verify"), "Show contact details" (then the details and "Hide") and,
 * for administrators only, its flags as switches. It decides nothing itself: the lookup checks the
 * reason, calls the BFF and hands the row the account as answered, its contact details while
 * shown, what is running and the BFF's refusal.
 */
import type { ReactNode } from 'react';
import type { ContactView } from '@raly/contracts/internal';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { contactViewKind } from '@/features/console/components/account-lookup';
import { ContactDetails } from '@/features/console/components/contact-details';

/** A flag an administrator sets with a switch on the row. */
export interface RowFlag {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}

export interface DecisionRowProps {
  /** The account's id (names the row's problem message). */
  id: string;
  /** The row's name for assistive technology and tests (a brand's company, a creator's @username). */
  name: string;
  /** The title line after the name (e.g. the Verified badge); Suspended is added by the row. */
  badges?: ReactNode;
  /** The account's public page and how its link reads (`@username`). */
  profileUrl: string;
  handle: string;
  isSuspended: boolean;
  /** The decision of this row waiting for the BFF, if any (`suspension`, `flags` or the row's own). */
  running?: string;
  /** Why the BFF (or the reason check) refused this row's last decision. */
  problem?: string;
  /** Whether the staff member is an administrator (raly-admin): only they see the flags. */
  canSetFlags: boolean;
  flags: RowFlag[];
  onSuspension(suspended: boolean): void;
  /** The account's contact details while shown (after "Show contact details"). */
  contacts?: ContactView;
  onShowContacts(): void;
  onHideContacts(): void;
  /** The row's own decision buttons, shown before "Suspend". */
  children?: ReactNode;
}

export function DecisionRow({
  id,
  name,
  badges,
  profileUrl,
  handle,
  isSuspended,
  running,
  problem,
  canSetFlags,
  flags,
  onSuspension,
  contacts,
  onShowContacts,
  onHideContacts,
  children,
}: DecisionRowProps) {
  const problemId = `account-${id}-problem`;
  return (
    <li
      aria-label={name}
      aria-describedby={problem ? problemId : undefined}
      className="space-y-2 px-4 py-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
            {name}
            {badges}
            {isSuspended && <Badge tone="red">Suspended</Badge>}
          </p>
          <a
            href={profileUrl}
            target="_blank"
            rel="noreferrer"
            className="text-sm text-indigo-700 underline"
          >
            {handle}
          </a>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {canSetFlags &&
            flags.map((flag) => (
              <CheckboxField
                key={flag.label}
                role="switch"
                label={flag.label}
                checked={flag.checked}
                disabled={running !== undefined}
                aria-busy={running === 'flags' || undefined}
                onChange={(event) => flag.onChange(event.target.checked)}
              />
            ))}
          {children}
          <Button
            variant="secondary"
            busy={running === 'suspension'}
            disabled={running !== undefined}
            onClick={() => onSuspension(!isSuspended)}
          >
            {isSuspended ? 'Lift suspension' : 'Suspend'}
          </Button>
          {!contacts && (
            <Button
              variant="secondary"
              busy={running === contactViewKind}
              disabled={running !== undefined}
              onClick={onShowContacts}
            >
              Show contact details
            </Button>
          )}
        </div>
      </div>
      {contacts && <ContactDetails view={contacts} onHide={onHideContacts} />}
      {problem && (
        <p id={problemId} role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
    </li>
  );
}
