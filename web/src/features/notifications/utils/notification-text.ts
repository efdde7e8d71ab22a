/**
 * What one notification says and where it leads (docs/product-spec.md
 * "Notifications"): a sentence from its kind, the offer's title and the
 * other side's public name, and the page it is about — the offer, the
 * brand's offer with its applicants, or the collaboration. The outcome of
 * the person's own report names what they reported, adds the outcome's
 * words (`reportOutcomeWords`) and leads to Settings → Reports.
 */
import type { Notification } from '@raly/contracts/notifications';
import { reportOutcomeWords } from '@raly/contracts/reports';
import { pathOf, paths } from '@/config/paths';

/** The sentence of an item; `who` falls back to a neutral word when there is no counterpart. */
export function notificationText(item: Notification): string {
  const title = `“${item.title}”`;
  const who = item.counterpart ?? 'Someone';
  switch (item.kind) {
    case 'offer_matched':
      return `New offer in your interests: ${title} by ${who}`;
    case 'application_received':
      return `${who} applied to ${title}`;
    case 'application_accepted':
      return `${who} accepted your application to ${title}`;
    case 'application_declined':
      return `${who} declined your application to ${title}`;
    case 'application_withdrawn':
      return `${who} withdrew their application to ${title}`;
    case 'message_received':
      return `New message from ${who} about ${title}`;
    case 'deliverable_submitted':
      return `${who} submitted work for ${title}`;
    case 'changes_requested':
      return `${who} asked for changes to your work for ${title}`;
    case 'deliverable_approved':
      return `${who} approved your work for ${title}`;
    case 'review_disputed':
      return `${who} opened a dispute about your work for ${title}`;
    case 'auto_approval_due':
      return `Work for ${title} will be approved automatically soon`;
    case 'deliverable_auto_approved':
      return `Work for ${title} was approved automatically`;
    case 'payment_marked':
      return `${who} marked the payment for ${title} as paid`;
    case 'payment_overdue':
      return `The payment for ${title} is overdue`;
    case 'review_received':
      return `${who} reviewed your collaboration on ${title}`;
    case 'report_resolved':
      // A reported message is named by its kind: its text is never copied into an item.
      return `Your report of ${item.report?.itemKind === 'message' ? 'a message' : title} was reviewed`;
  }
}

/** The line under an item's sentence: the outcome's words of a report, else null. */
export function notificationDetail(item: Notification): string | null {
  return item.kind === 'report_resolved' && item.report
    ? reportOutcomeWords[item.report.outcome]
    : null;
}

/** The page an item is about, or null when it names nothing to open. */
export function notificationLink(item: Notification): string | null {
  if (item.kind === 'report_resolved') return paths.settingsReports.path;
  if (item.collaborationId) return pathOf(paths.collaboration, { id: item.collaborationId });
  if (!item.offerId) return null;
  if (item.kind === 'application_received' || item.kind === 'application_withdrawn')
    return pathOf(paths.brandOffer, { id: item.offerId });
  return pathOf(paths.offer, { id: item.offerId });
}
