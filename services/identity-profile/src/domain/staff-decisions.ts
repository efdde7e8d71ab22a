/**
 * Staff decisions on a creator (docs/console.md), sent by the BFF from the console: suspending a
 * creator or lifting the suspension, an administrator's flags, and ending the Keycloak sessions
 * of a suspended brand's members. Every change goes out as the user's `identity.user.updated`
 * snapshot, which offers (pending applications withdrawn) and the BFF's read model follow, and
 * as the decision's audit entry on `identity.audit.v1`, both in the change's transaction; a
 * decision that changes nothing writes neither.
 */
import { newAuditEntry, type StaffDecision } from '@raly/contracts/audit';
import {
  creatorFlagsCommandSchema,
  endSessionsCommandSchema,
  suspensionCommandSchema,
  suspensionStateOf,
} from '@raly/contracts/internal';
import type { UserRecord } from '@raly/contracts/records';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { UserChanges } from '../data-access/user-repository';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { auditEntryRecordedEvent, userUpdatedEvent } from './events';

/** A creator: a user who is neither a brand's member nor a brand-side account. */
export const isCreator = (user: UserRecord): boolean =>
  user.brand === null && !('brand' in user.onboarding);

/** The creator with this id. @throws AppError not-found 'No such creator.' */
async function creatorById(dependencies: IdentityDependencies, id: string): Promise<UserRecord> {
  const user = await dependencies.users.findById(id);
  if (!user || !isCreator(user)) throw identityErrors.noSuchCreator();
  return user;
}

/** The audit entry of `decision`, on the creator as the change left them (their username). */
const auditEntryOf =
  (decision: StaffDecision): RaiseEvent<UserRecord> =>
  (user) =>
    auditEntryRecordedEvent(
      newAuditEntry(decision, { kind: 'creator', id: user.id, label: user.username ?? '' }),
    );

/**
 * Applies a staff decision's `changes` with the user's snapshot event and the decision's audit
 * entry, in one transaction. @throws AppError not-found
 */
async function saveDecision(
  dependencies: IdentityDependencies,
  id: string,
  changes: UserChanges,
  decision: StaffDecision,
): Promise<UserRecord> {
  const updated = await dependencies.users.updateWithEvent(id, changes, [
    userUpdatedEvent,
    auditEntryOf(decision),
  ]);
  if (!updated) throw identityErrors.noSuchCreator();
  return updated;
}

/**
 * `PUT /users/:id/suspension` (internal, the BFF): suspends a creator (with when, by which staff
 * member and why) or lifts the suspension (clearing them), with the decision's audit entry
 * (`creator.suspend` or `creator.lift-suspension`, the reason, no details). Idempotent: a creator
 * already in the wanted state is answered as is, with no event and no entry. A suspended
 * creator's Keycloak sessions are ended (Admin REST API `POST /users/{id}/logout`) on every call
 * that leaves them suspended, so their refresh tokens stop working.
 * @param input `suspensionCommandSchema`, unparsed
 * @returns the creator's record after the decision
 * @throws AppError invalid-argument (the body), not-found (no such creator), unavailable/internal
 *   (the database or Keycloak)
 */
export async function decideCreatorSuspension(
  dependencies: IdentityDependencies,
  id: string,
  input: unknown,
): Promise<UserRecord> {
  const command = suspensionCommandSchema.parse(input);
  const current = await creatorById(dependencies, id);
  const at = new Date();
  const record =
    current.permissions.isSuspended === command.suspended
      ? current
      : await saveDecision(dependencies, id, suspensionStateOf(command, at), {
          staff: command.staff,
          at,
          action: command.suspended ? 'creator.suspend' : 'creator.lift-suspension',
          reason: command.reason,
          details: {},
        });
  if (record.permissions.isSuspended) await dependencies.keycloak.endAllSessions(id);
  dependencies.logger.info(
    { userId: id, staffUserId: command.staff.userId, suspended: command.suspended },
    'creator suspension decided',
  );
  return record;
}

/**
 * `PUT /users/:id/flags` (internal, the BFF for an administrator): sets a creator's `isBoosted`
 * and/or `isAmbassador` (spec §3 permissions), with the decision's audit entry (`creator.flags`,
 * no reason, the flags that changed as details). Idempotent: nothing changed, no event.
 * @param input `creatorFlagsCommandSchema`, unparsed
 * @returns the creator's record after the change
 * @throws AppError invalid-argument, not-found
 */
export async function setCreatorFlags(
  dependencies: IdentityDependencies,
  id: string,
  input: unknown,
): Promise<UserRecord> {
  const { staff, ...flags } = creatorFlagsCommandSchema.parse(input);
  const current = await creatorById(dependencies, id);
  const changes: Record<string, boolean> = Object.fromEntries(
    Object.entries(flags).filter(
      ([flag, value]) =>
        value !== undefined && current.permissions[flag as keyof typeof flags] !== value,
    ),
  );
  if (Object.keys(changes).length === 0) return current;
  return saveDecision(dependencies, id, changes as UserChanges, {
    staff,
    at: new Date(),
    action: 'creator.flags',
    reason: null,
    details: changes,
  });
}

/**
 * `POST /sessions/end` (internal, the BFF for a suspended brand): ends every Keycloak session of
 * each user (Admin REST API `POST /users/{id}/logout`); an unknown user is skipped.
 * @param input `endSessionsCommandSchema`, unparsed
 * @returns how many users' sessions were ended
 * @throws AppError invalid-argument; Keycloak's failure for any other refusal
 */
export async function endUsersSessions(
  dependencies: IdentityDependencies,
  input: unknown,
): Promise<{ ended: number }> {
  const { userIds } = endSessionsCommandSchema.parse(input);
  let ended = 0;
  for (const userId of new Set(userIds)) {
    if (!(await dependencies.users.findById(userId))) continue;
    await dependencies.keycloak.endAllSessions(userId);
    ended += 1;
  }
  return { ended };
}
