/**
 * The console's creator lookup (docs/console.md): creators by the start of their username or
 * their whole e-mail (GET /api/console/creators, 3–100 characters, checked here with the
 * contract's rule and words), each a CreatorRow in an AccountLookup: "Suspend" / "Lift
 * suspension" (PUT /api/console/creators/:id/suspension, a reason of 1–500 characters), "Show
 * contact details" (POST /api/console/creators/:id/contact-view, a reason of 3–500 characters;
 * each view an audit entry) and, for administrators, the "Boosted" and "Ambassador" switches
 * (PUT /api/console/creators/:id/flags, no reason: the route takes the flags only).
 */
import { creatorSearchQuerySchema, type ConsoleCreator } from '@raly/contracts/internal';
import type { ConsoleApi } from '@/features/console/api/console-api';
import {
  AccountLookup,
  suspensionReasonProblem,
} from '@/features/console/components/account-lookup';
import { CreatorRow, type CreatorAction } from '@/features/console/components/creator-row';

/** @returns the contract's words when `query` cannot be searched, else undefined */
function queryProblem(query: string): string | undefined {
  const checked = creatorSearchQuerySchema.safeParse({ query });
  return checked.success ? undefined : checked.error.issues[0]?.message;
}

/** Sends `action` on `creator` to the BFF with `reason`. @returns the creator as the BFF answered */
function send(api: ConsoleApi, creator: ConsoleCreator, action: CreatorAction, reason: string) {
  if (action.kind === 'suspension')
    return api.setCreatorSuspension(creator.id, { suspended: action.suspended, reason });
  return api.setCreatorFlags(creator.id, {
    isBoosted: action.isBoosted,
    isAmbassador: action.isAmbassador,
  });
}

/**
 * @param api the console's calls for the signed-in staff member
 * @param canSetFlags whether they are an administrator (raly-admin): only then the rows show flags
 */
export function CreatorLookup({ api, canSetFlags }: { api: ConsoleApi; canSetFlags: boolean }) {
  return (
    <AccountLookup<ConsoleCreator, CreatorAction>
      heading="Creators"
      searchLabel="Username or e-mail"
      listLabel="Creators found"
      noMatch="No creator matches."
      reasonHint="Kept with each suspension you decide (at most 500 characters)."
      reasonMaxLength={500}
      queryProblem={queryProblem}
      reasonProblem={(action, reason) =>
        action.kind === 'suspension' ? suspensionReasonProblem(reason) : undefined
      }
      find={(query) => api.findCreators(query)}
      send={(creator, action, reason) => send(api, creator, action, reason)}
      viewContacts={(creator, reason) => api.viewCreatorContact(creator.id, { reason })}
      renderRow={(creator, state) => (
        <CreatorRow key={creator.id} creator={creator} canSetFlags={canSetFlags} {...state} />
      )}
    />
  );
}
