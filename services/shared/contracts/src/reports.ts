/**
 * Reports (docs/console.md "Reports"): a signed-in person reports an offer, a public profile (a
 * creator's or a brand's) or a collaboration message, with a reason and a note; staff resolve the
 * report with an outcome the reporter learns. One person reports one item once. services/moderation
 * owns the record and publishes its snapshot on `moderation.report.v1`; these are its record, the
 * internal commands the BFF sends it and the queries of its queue.
 */
import { z } from 'zod';
import { staffActorSchema } from './audit';
import { messages } from './messages';
import { lookupValueSchema, multilineText } from './validation';

/** Why a person reports an item. */
export const reportReasons = [
  'spam',
  'scam-or-fraud',
  'harassment',
  'hateful-or-violent',
  'sexual-content',
  'impersonation',
  'off-platform-contact',
  'other',
] as const;
export type ReportReason = (typeof reportReasons)[number];

/** The words of each reason in the report form: its label and what it covers. */
export const reportReasonWords: Record<ReportReason, { label: string; description: string }> = {
  spam: { label: 'Spam', description: 'Repeated, unwanted or irrelevant content.' },
  'scam-or-fraud': {
    label: 'Scam or fraud',
    description: 'Fake offers, unpaid work or attempts to take money or details.',
  },
  harassment: { label: 'Harassment', description: 'Insults, threats or unwanted contact.' },
  'hateful-or-violent': {
    label: 'Hateful or violent',
    description: 'Attacks on people for who they are, or calls for violence.',
  },
  'sexual-content': { label: 'Sexual content', description: 'Nudity or sexual content.' },
  impersonation: {
    label: 'Impersonation',
    description: 'Pretending to be another person or brand.',
  },
  'off-platform-contact': {
    label: 'Contact outside Raly',
    description: 'Asking for an e-mail address, a phone number or a payment outside Raly.',
  },
  other: { label: 'Something else', description: 'Tell us what is wrong in the note.' },
};

/** What can be reported: an offer, a creator's or a brand's public profile, a collaboration message. */
export const reportItemKinds = ['offer', 'creator', 'brand', 'message'] as const;
export type ReportItemKind = (typeof reportItemKinds)[number];

/** Whom staff would act on for a report: a creator or a brand. */
export const reportAccusedKinds = ['creator', 'brand'] as const;
export type ReportAccusedKind = (typeof reportAccusedKinds)[number];

/** Where a report stands. */
export const reportStatuses = ['open', 'resolved'] as const;
export type ReportStatus = (typeof reportStatuses)[number];

/** What staff decided: nothing to do, a warning, or a suspension of the accused. */
export const reportOutcomes = ['no-action', 'warning', 'suspension'] as const;
export type ReportOutcome = (typeof reportOutcomes)[number];

/** Longest item label (an offer title, @username, a company, a message excerpt), in characters. */
export const REPORT_ITEM_LABEL_MAX_LENGTH = 200;
/** Longest note of a report or of its resolution, in characters. */
export const REPORT_NOTE_MAX_LENGTH = 1000;
/** Reports in one page of the queue or of a reporter's own reports. */
export const REPORT_PAGE_SIZE = 50;

/** A required internal value: 1–255 characters, no control characters. */
const internalValue = lookupValueSchema.min(1, messages.requestProblem);

/** An unknown field, or a value of the wrong type: a request problem (a caller's bug). */
const strict = { error: messages.requestProblem };

/**
 * The reported item: its kind, its id in the service that owns it and what the reporter saw of
 * it (offer title, @username, company, or an excerpt of the message), 1–200 characters after
 * trimming, line breaks allowed.
 */
export const reportItemSchema = z.strictObject(
  {
    kind: z.enum(reportItemKinds, messages.requestProblem),
    id: internalValue,
    label: multilineText()
      .trim()
      .min(1, messages.requestProblem)
      .max(REPORT_ITEM_LABEL_MAX_LENGTH, messages.valueTooLong),
  },
  strict,
);
export type ReportItem = z.infer<typeof reportItemSchema>;

/** The creator (user id) or brand (brand id) staff would act on. */
export const reportAccusedSchema = z.strictObject(
  { kind: z.enum(reportAccusedKinds, messages.requestProblem), id: internalValue },
  strict,
);
export type ReportAccused = z.infer<typeof reportAccusedSchema>;

/** A report's note: 0–1000 characters after trimming, line breaks allowed. */
const reportNoteSchema = multilineText()
  .trim()
  .max(REPORT_NOTE_MAX_LENGTH, messages.reportNoteTooLong);

/** A resolution's note: 1–1000 characters after trimming, line breaks allowed. */
const resolutionNoteSchema = multilineText()
  .trim()
  .min(1, messages.reportResolutionNoteRequired)
  .max(REPORT_NOTE_MAX_LENGTH, messages.reportNoteTooLong);

/** Staff's decision on a report, as stored: the outcome, why, who and when (ISO 8601). */
export const reportResolutionSchema = z.object({
  outcome: z.enum(reportOutcomes),
  note: z.string(),
  staff: staffActorSchema,
  at: z.iso.datetime({ offset: true }),
});
export type ReportResolution = z.infer<typeof reportResolutionSchema>;

/**
 * One report: the payload of `moderation.report.opened` and `moderation.report.updated` on
 * `moderation.report.v1` (key: the report's id; `version` grows with every change), and the
 * `data` of services/moderation's report routes.
 */
export const reportRecordSchema = z.object({
  id: z.uuid(),
  version: z.number().int().positive(),
  reporterUserId: z.string().min(1),
  item: z.object({ kind: z.enum(reportItemKinds), id: z.string().min(1), label: z.string() }),
  accused: z.object({ kind: z.enum(reportAccusedKinds), id: z.string().min(1) }),
  reason: z.enum(reportReasons),
  note: z.string(),
  status: z.enum(reportStatuses),
  /** Null while the report is open. */
  resolution: reportResolutionSchema.nullable(),
  created: z.iso.datetime({ offset: true }),
  updated: z.iso.datetime({ offset: true }),
});
export type ReportRecord = z.infer<typeof reportRecordSchema>;

/** A report's reason and note, as the form and the internal command both take them. */
const reportReasonFields = {
  reason: z.enum(reportReasons, messages.reportReasonRequired),
  note: reportNoteSchema.optional().default(''),
};

/** The reason `other` needs a note: 'Tell us what is wrong in the note.' on `note`. */
function requireNoteForOther(
  report: { reason: ReportReason; note: string },
  context: z.RefinementCtx,
): void {
  if (report.reason === 'other' && report.note === '')
    context.addIssue({ code: 'custom', path: ['note'], message: messages.reportNoteRequired });
}

/**
 * The accused an item implies: a profile's owner is that creator or brand, an offer's is a brand;
 * a message's sender may be either.
 */
function accusedFits(item: ReportItem, accused: ReportAccused): boolean {
  if (item.kind === 'creator' || item.kind === 'brand')
    return accused.kind === item.kind && accused.id === item.id;
  if (item.kind === 'offer') return accused.kind === 'brand';
  return true;
}

/**
 * `POST /reports` on services/moderation, sent by the BFF for a signed-in person: the reporter's
 * user id, the item, whom it accuses, a reason and a note (required for the reason `other`).
 * Refusals: 'Choose a reason for the report.', 'Tell us what is wrong in the note.', 'The note
 * must not exceed 1000 characters.'; an accused that does not fit the item (a profile accusing
 * someone else, an offer accusing a creator) is a request problem.
 */
export const openReportCommandSchema = z
  .strictObject(
    {
      reporterUserId: internalValue,
      item: reportItemSchema,
      accused: reportAccusedSchema,
      ...reportReasonFields,
    },
    strict,
  )
  .superRefine((command, context) => {
    requireNoteForOther(command, context);
    if (!accusedFits(command.item, command.accused))
      context.addIssue({ code: 'custom', path: ['accused'], message: messages.requestProblem });
  });
export type OpenReportCommand = z.infer<typeof openReportCommandSchema>;

/**
 * `PUT /reports/:id/resolution` on services/moderation, sent by the BFF for a staff member: who
 * (from the console's access token), the outcome and why (1–1000 characters). A report is
 * resolved once; the same resolution again changes nothing.
 */
export const resolveReportCommandSchema = z.strictObject(
  {
    staff: z.strictObject(staffActorSchema.shape, strict),
    outcome: z.enum(reportOutcomes, messages.reportOutcomeRequired),
    note: resolutionNoteSchema,
  },
  strict,
);
export type ResolveReportCommand = z.infer<typeof resolveReportCommandSchema>;

/** A page cursor: a page's `nextBefore`, opaque to callers. */
const cursorParameter = z
  .string(messages.requestProblem)
  .min(1, messages.requestProblem)
  .max(200, messages.requestProblem);

/**
 * The query of services/moderation's `GET /reports`: the open queue (oldest first, default) or
 * the resolved reports (newest resolution first), after the report the `before` cursor names.
 */
export const reportQueueQuerySchema = z.strictObject(
  {
    status: z.enum(reportStatuses, messages.requestProblem).optional().default('open'),
    before: cursorParameter.optional(),
  },
  strict,
);
export type ReportQueueQuery = z.infer<typeof reportQueueQuerySchema>;

/** The query of `GET /reports/mine`: one reporter's own reports, newest first. */
export const myReportsQuerySchema = z.strictObject(
  { reporterUserId: internalValue, before: cursorParameter.optional() },
  strict,
);
export type MyReportsQuery = z.infer<typeof myReportsQuerySchema>;

/** A page of reports; `nextBefore` is the cursor of the next page, or null. */
export const reportPageSchema = z.object({
  reports: z.array(reportRecordSchema),
  nextBefore: z.string().nullable(),
});
export type ReportPage = z.infer<typeof reportPageSchema>;

/**
 * The body of the BFF's `POST /api/reports` (a signed-in creator or brand member): which item
 * (its kind and id; the BFF looks up its label and whom it accuses in the owning service), a
 * reason and a note (required for `other`). The form checks the same rules with the same words.
 */
export const reportFormSchema = z
  .strictObject(
    {
      item: z.strictObject(
        { kind: z.enum(reportItemKinds, messages.requestProblem), id: internalValue },
        strict,
      ),
      ...reportReasonFields,
    },
    strict,
  )
  .superRefine(requireNoteForOther);
export type ReportForm = z.infer<typeof reportFormSchema>;

/**
 * A report as its reporter sees it (`POST /api/reports`, `GET /api/reports/mine`): the record
 * without the accused's id and without who resolved it (staff stay anonymous to users).
 */
export interface ReporterReport {
  id: string;
  item: ReportRecord['item'];
  reason: ReportReason;
  note: string;
  status: ReportStatus;
  /** Null while open; the outcome, the resolution's note and when, once resolved. */
  resolution: { outcome: ReportOutcome; note: string; at: string } | null;
  created: string;
}

/** The reporter's view of a report record. */
export function reporterViewOf(report: ReportRecord): ReporterReport {
  return {
    id: report.id,
    item: report.item,
    reason: report.reason,
    note: report.note,
    status: report.status,
    resolution: report.resolution
      ? {
          outcome: report.resolution.outcome,
          note: report.resolution.note,
          at: report.resolution.at,
        }
      : null,
    created: report.created,
  };
}

/** The body of the console's `PUT /api/console/reports/:id/resolution`: the outcome and why. */
export const reportResolutionDecisionSchema = resolveReportCommandSchema.omit({ staff: true });
export type ReportResolutionDecision = z.infer<typeof reportResolutionDecisionSchema>;

/** What the reporter reads for each outcome. */
export const reportOutcomeWords: Record<ReportOutcome, string> = {
  'no-action': 'Reviewed: no action was needed',
  warning: 'Reviewed: the account was warned',
  suspension: 'Reviewed: the account was suspended',
};
