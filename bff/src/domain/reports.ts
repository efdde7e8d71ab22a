/**
 * Reports through the BFF (docs/console.md "Reports"): a signed-in creator or brand member
 * reports an offer, a creator's or a brand's public profile, or a message of a collaboration
 * they are a party of; the BFF finds what the reporter saw of the item (its label) and whom it
 * accuses in the read model or the owning service, never in the request, and
 * services/moderation keeps the report. Reporters read their own reports without the accused's
 * id or the staff member who resolved them (`reporterViewOf`).
 */
import {
  REPORT_ITEM_LABEL_MAX_LENGTH,
  reportFormSchema,
  reporterViewOf,
  type ReportAccused,
  type ReportForm,
  type ReportItem,
  type ReporterReport,
} from '@raly/contracts/reports';
import { messages } from '@raly/contracts/messages';
import { isCreatorAccount } from '@raly/contracts/records';
import type { Caller } from '@raly/service-kit/auth';
import { AppError } from '@raly/service-kit/errors';
import type { CollaborationsClient } from '../data-access/collaborations-client';
import type { IdentityClient } from '../data-access/identity-client';
import type { ModerationClient } from '../data-access/moderation-client';
import type { OffersClient } from '../data-access/offers-client';
import { bffErrors } from './errors';
import { findMyUser } from './me';
import type { RecordStore } from './record-store';

export interface ReportsDependencies {
  identity: IdentityClient;
  records: RecordStore;
  offers: Pick<OffersClient, 'getOffer'>;
  collaborations: Pick<CollaborationsClient, 'getMessage' | 'getCollaboration'>;
  moderation: ModerationClient;
}

/** What a report names: the item as the reporter saw it and whom it accuses. */
interface ReportedItem {
  item: ReportItem;
  accused: ReportAccused;
}

/** The item's label as moderation keeps it: at most `REPORT_ITEM_LABEL_MAX_LENGTH` characters. */
const labelOf = (text: string) => text.trim().slice(0, REPORT_ITEM_LABEL_MAX_LENGTH);

/**
 * What an owning service answered, with its refusal of the id (not found, or malformed) as
 * `reportedItemNotFound`.
 * @throws AppError not-found `reportedItemNotFound`; any other failure as it came
 */
const foundForReport = <T>(answer: Promise<T>): Promise<T> =>
  answer.catch((error: unknown) => {
    if (error instanceof AppError && ['not-found', 'invalid-argument'].includes(error.code))
      throw bffErrors.reportedItemNotFound();
    throw error;
  });

/**
 * The offer as the reporter can see it (services/offers with their token: another brand's
 * draft is not found), accusing its brand.
 * @throws AppError not-found `reportedItemNotFound` when offers does not find it or refuses the id
 */
async function reportedOffer(
  dependencies: ReportsDependencies,
  caller: Caller,
  offerId: string,
): Promise<ReportedItem> {
  const offer = await foundForReport(dependencies.offers.getOffer(caller.accessToken, offerId));
  return {
    item: { kind: 'offer', id: offer.id, label: labelOf(offer.title) },
    accused: { kind: 'brand', id: offer.brandId },
  };
}

/**
 * A message as one of its collaboration's parties reads it (services/collaborations with the
 * reporter's token: anyone else is told it does not exist): label an excerpt of its body,
 * accusing its sender, the collaboration's creator or, for a message sent for the brand, the brand.
 * @throws AppError not-found `reportedItemNotFound` for no such message, a malformed id or a
 *   reporter who is no party of its collaboration
 */
async function reportedMessage(
  dependencies: ReportsDependencies,
  caller: Caller,
  messageId: string,
): Promise<ReportedItem> {
  const { collaborations } = dependencies;
  const message = await foundForReport(collaborations.getMessage(caller.accessToken, messageId));
  const collaboration = await foundForReport(
    collaborations.getCollaboration(caller.accessToken, message.collaborationId),
  );
  return {
    item: { kind: 'message', id: message.id, label: labelOf(message.body) },
    accused:
      message.sender.party === 'creator'
        ? { kind: 'creator', id: collaboration.creatorId }
        : { kind: 'brand', id: collaboration.brandId },
  };
}

/**
 * A creator's public profile by their user id (the read model's user record): label
 * `@username`, accusing the creator.
 * @throws AppError not-found `reportedItemNotFound` for no such user, a brand member or a creator
 *   without a username (who has no public profile)
 */
async function reportedCreator(
  dependencies: ReportsDependencies,
  userId: string,
): Promise<ReportedItem> {
  const user = await dependencies.records.get('user', userId);
  if (!user || !isCreatorAccount(user) || !user.username) throw bffErrors.reportedItemNotFound();
  return {
    item: { kind: 'creator', id: user.id, label: labelOf(`@${user.username}`) },
    accused: { kind: 'creator', id: user.id },
  };
}

/**
 * A brand's public profile by its id (the read model's brand record): label its company,
 * accusing the brand.
 * @throws AppError not-found `reportedItemNotFound` for no such brand
 */
async function reportedBrand(
  dependencies: ReportsDependencies,
  brandId: string,
): Promise<ReportedItem> {
  const brand = await dependencies.records.get('brand', brandId);
  if (!brand) throw bffErrors.reportedItemNotFound();
  return {
    item: { kind: 'brand', id: brand.id, label: labelOf(brand.company || `@${brand.username}`) },
    accused: { kind: 'brand', id: brand.id },
  };
}

/**
 * The reported item, found in the read model or the owning service.
 * @throws AppError not-found `reportedItemNotFound`
 */
function reportedItemOf(
  dependencies: ReportsDependencies,
  caller: Caller,
  item: ReportForm['item'],
): Promise<ReportedItem> {
  switch (item.kind) {
    case 'offer':
      return reportedOffer(dependencies, caller, item.id);
    case 'creator':
      return reportedCreator(dependencies, item.id);
    case 'brand':
      return reportedBrand(dependencies, item.id);
    case 'message':
      return reportedMessage(dependencies, caller, item.id);
  }
}

/**
 * POST /api/reports (a signed-in creator or brand member): checks the form, finds the item's
 * label and accused, refuses a report of the caller or their own brand (its offers and
 * messages too), and opens the report in services/moderation.
 * @param input the body (`reportFormSchema`), unparsed
 * @returns the report as its reporter sees it, open
 * @throws AppError invalid-argument with the form's messages ('Choose a reason for the report.',
 *   'Tell us what is wrong in the note.', 'The note must not exceed 1000 characters.'),
 *   `cannotReportYourself`; not-found `reportedItemNotFound`;
 *   conflict 'You have already reported this.' (moderation's); unavailable
 */
export async function openMyReport(
  dependencies: ReportsDependencies,
  caller: Caller,
  input: unknown,
): Promise<ReporterReport> {
  const form = reportFormSchema.parse(input);
  const { item, accused } = await reportedItemOf(dependencies, caller, form.item);
  const me = await findMyUser(dependencies, caller);
  const myself: ReportAccused[] = [{ kind: 'creator', id: caller.userId }];
  if (me?.brand?.id) myself.push({ kind: 'brand', id: me.brand.id });
  if (myself.some((who) => who.kind === accused.kind && who.id === accused.id))
    throw bffErrors.cannotReportYourself();
  const report = await dependencies.moderation.openReport({
    reporterUserId: caller.userId,
    item,
    accused,
    reason: form.reason,
    note: form.note,
  });
  return reporterViewOf(report);
}

/**
 * GET /api/reports/mine?before= (a signed-in person): their own reports, newest first, a page
 * at a time (moderation's `GET /reports/mine`), each as its reporter sees it.
 * @param query the request's query string: `before`, the previous page's `nextBefore`, once
 * @throws AppError invalid-argument (a repeated or malformed cursor, an unknown parameter)
 */
export async function listMyReports(
  dependencies: Pick<ReportsDependencies, 'moderation'>,
  caller: Caller,
  query: Record<string, unknown>,
): Promise<{ reports: ReporterReport[]; nextBefore: string | null }> {
  const { before, ...unknown } = query;
  if (Object.keys(unknown).length > 0 || (before !== undefined && typeof before !== 'string'))
    throw bffErrors.invalidArgument(messages.requestProblem);
  const page = await dependencies.moderation.myReports(caller.userId, before);
  return { reports: page.reports.map(reporterViewOf), nextBefore: page.nextBefore };
}
