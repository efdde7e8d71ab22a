/**
 * The staff audit log as the console reads it (docs/console.md "Audit log"): the search is
 * checked here with the contract (`auditQuerySchema`), so a bad one never leaves the BFF, and
 * the page comes from services/moderation, which keeps every entry.
 */
import { auditQuerySchema, staffActions, type AuditPage } from '@raly/contracts/audit';
import { messages } from '@raly/contracts/messages';
import type { z } from 'zod';
import type { ModerationClient } from '../data-access/moderation-client';

/** What a search's refusal says, by parameter: the contract checks, these words explain. */
const auditQueryMessages = {
  query: {
    type: 'Give the search once, as text.',
    tooLong: messages.searchTooLong,
  },
  action: `The action must be one of ${staffActions.join(', ')}, given once.`,
  before: 'The page cursor is not valid: take the next page from the previous answer.',
  unknown: (keys: readonly string[]) =>
    `Unknown search parameter: ${keys.join(', ')}. The audit log takes query, action and before.`,
} as const;

/** zod's per-parse error map for `auditQuerySchema`: the words above for each issue. */
function auditQueryMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'unrecognized_keys') return auditQueryMessages.unknown(issue.keys);
  switch (issue.path?.[0]) {
    case 'query':
      return issue.code === 'too_big'
        ? auditQueryMessages.query.tooLong
        : auditQueryMessages.query.type;
    case 'action':
      return auditQueryMessages.action;
    case 'before':
      return auditQueryMessages.before;
    default:
      return undefined;
  }
}

/**
 * GET /api/console/audit?query=&action=&before= (raly-moderator): one page of the staff audit
 * log, newest first: entries whose staff e-mail, target label or target id contains `query`
 * (ignoring case), of one `action` when given, after the entry `before` names (the previous
 * page's `nextBefore`) when given (moderation's `GET /audit-entries`).
 * @param input the request's query string (`auditQuerySchema`), unparsed
 * @returns at most `AUDIT_PAGE_SIZE` entries and the next page's cursor, or null
 * @throws AppError invalid-argument (a repeated or too long search, an unknown action, an empty
 *   or too long cursor, an unknown parameter) before moderation is called; unavailable (503)
 */
export async function findAuditEntries(
  dependencies: { moderation: ModerationClient },
  input: unknown,
): Promise<AuditPage> {
  const query = auditQuerySchema.parse(input, { error: auditQueryMessage });
  return dependencies.moderation.auditEntries(query);
}
