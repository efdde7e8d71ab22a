/**
 * The staff audit log (docs/console.md "Audit log"): every action a staff member takes in the
 * console (who, what, on whom, when and why) is an audit entry. The service that owns the record
 * acted upon writes the entry in the same transaction as the change, through its outbox, as a
 * `<context>.audit-entry.recorded` event on its own audit topic (`identity.audit.v1`,
 * `brand.audit.v1`, `moderation.audit.v1`); services/moderation keeps every entry as a row staff
 * search (its own entries, of resolved reports, it inserts with the resolution). An entry is an
 * immutable fact: no API edits or deletes one.
 */
import { z } from 'zod';
import { lookupValueSchema } from './validation';

/** Every kind of staff action the audit log records. */
export const staffActions = [
  'brand.verify',
  'brand.unverify',
  'brand.suspend',
  'brand.lift-suspension',
  'brand.flags',
  'creator.suspend',
  'creator.lift-suspension',
  'creator.flags',
  'contact.view',
  'report.resolve',
] as const;
export type StaffAction = (typeof staffActions)[number];

/**
 * The staff member behind an internal staff command, from the verified console access token
 * (the BFF's `StaffCaller`): their Keycloak user id and e-mail address.
 */
export const staffActorSchema = z
  .object({
    userId: lookupValueSchema.min(1),
    email: lookupValueSchema.min(1),
  })
  .strict();
export type StaffActor = z.infer<typeof staffActorSchema>;

/** What an entry's action was taken on: a creator, a brand or a report (docs/console.md "Reports"). */
export const auditTargetSchema = z.object({
  kind: z.enum(['creator', 'brand', 'report']),
  /** The creator's user id, the brand's id or the report's id. */
  id: z.string().min(1),
  /**
   * How staff know the target: the username, or the company of a brand, at the time; for a report,
   * the label of the reported item.
   */
  label: z.string(),
});
export type AuditTarget = z.infer<typeof auditTargetSchema>;

/**
 * The kinds of target each staff action is taken on: an entry naming another kind contradicts
 * itself (moderation dead-letters it).
 */
export const staffActionTargets: Record<StaffAction, readonly AuditTarget['kind'][]> = {
  'brand.verify': ['brand'],
  'brand.unverify': ['brand'],
  'brand.suspend': ['brand'],
  'brand.lift-suspension': ['brand'],
  'brand.flags': ['brand'],
  'creator.suspend': ['creator'],
  'creator.lift-suspension': ['creator'],
  'creator.flags': ['creator'],
  'contact.view': ['creator', 'brand'],
  'report.resolve': ['report'],
};

/**
 * One audit entry: the payload of `identity.audit-entry.recorded`,
 * `brand.audit-entry.recorded` and `moderation.audit-entry.recorded` (envelope subject: the
 * entry's id, version 1), and a row of moderation's `GET /audit-entries`.
 */
export const auditEntrySchema = z.object({
  id: z.uuid(),
  /** ISO 8601 instant the action took effect. */
  at: z.iso.datetime({ offset: true }),
  staff: staffActorSchema,
  action: z.enum(staffActions),
  target: auditTargetSchema,
  /** Why, in the staff member's words; null for an action taken without a reason (flags). */
  reason: z.string().nullable(),
  /** The action's settings, e.g. `{ isBoosted: true }` for flags; empty when the action says all. */
  details: z.record(z.string(), z.union([z.boolean(), z.string(), z.null()])),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A staff decision as its audit entry records it, before the change names its target. */
export interface StaffDecision extends Pick<AuditEntry, 'action' | 'reason' | 'details'> {
  staff: StaffActor;
  /** When the decision took effect. */
  at: Date;
}

/**
 * A new audit entry: a fresh id (a v4 uuid from Web Crypto's `randomUUID`, in Node and browsers
 * alike) for `decision` on `target`.
 * @param target the creator or brand as the change left it
 */
export function newAuditEntry(decision: StaffDecision, target: AuditTarget): AuditEntry {
  return {
    id: globalThis.crypto.randomUUID(),
    at: decision.at.toISOString(),
    staff: decision.staff,
    action: decision.action,
    target,
    reason: decision.reason,
    details: decision.details,
  };
}

/** Longest audit search text, in characters. */
export const AUDIT_QUERY_MAX_LENGTH = 100;
/** Entries in one page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * The query of `GET /api/console/audit` and moderation's `GET /audit-entries`: entries whose
 * staff e-mail, target label or target id contains `query` (ignoring case), of one `action` when
 * given, newest first, after the entry the `before` cursor names (a page's `nextBefore`, opaque to
 * callers) when given.
 */
export const auditQuerySchema = z
  .object({
    query: z.string().trim().max(AUDIT_QUERY_MAX_LENGTH).optional(),
    action: z.enum(staffActions).optional(),
    before: z.string().min(1).max(200).optional(),
  })
  .strict();
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** A page of the audit log, newest first; `nextBefore` is the cursor of the next page, or null. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextBefore: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
