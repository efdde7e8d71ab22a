/**
 * The digest e-mail (docs/architecture.md "E-mail digests"): how many unread
 * notifications of each kind wait, a link to the inbox and the unsubscribe
 * link, as HTML (MJML, rendered to e-mail-safe HTML) and plain text. It names
 * the person by their own username at most: no message text, no offer title,
 * no other party's name, address or phone number, and no remote images
 * (nothing to track an opening with).
 */
import mjml2html from 'mjml';
import type { DigestCounts } from '../data-access/digests';
import type { NotificationKind } from '../generated/prisma/enums';

/** One line per kind: how the count reads (`n` is at least 1). */
const lineOf: Record<NotificationKind, (n: number) => string> = {
  offer_matched: (n) =>
    n === 1 ? 'a new offer for your interests' : `${n} new offers for your interests`,
  application_received: (n) => (n === 1 ? 'a new application' : `${n} new applications`),
  application_accepted: (n) => (n === 1 ? 'an application accepted' : `${n} applications accepted`),
  application_declined: (n) => (n === 1 ? 'an application declined' : `${n} applications declined`),
  application_withdrawn: (n) =>
    n === 1 ? 'an application withdrawn' : `${n} applications withdrawn`,
  // One unread item per conversation (docs/product-spec.md §12.1): the count is of conversations.
  message_received: (n) =>
    n === 1 ? 'new messages in a collaboration' : `new messages in ${n} collaborations`,
  deliverable_submitted: (n) => (n === 1 ? 'a submission to review' : `${n} submissions to review`),
  changes_requested: (n) => (n === 1 ? 'a request for changes' : `${n} requests for changes`),
  deliverable_approved: (n) => (n === 1 ? 'a deliverable approved' : `${n} deliverables approved`),
  review_disputed: (n) => (n === 1 ? 'a disputed review' : `${n} disputed reviews`),
  auto_approval_due: (n) =>
    n === 1 ? 'an automatic approval coming due' : `${n} automatic approvals coming due`,
  deliverable_auto_approved: (n) =>
    n === 1 ? 'a deliverable approved automatically' : `${n} deliverables approved automatically`,
  payment_marked: (n) => (n === 1 ? 'a payment marked as sent' : `${n} payments marked as sent`),
  payment_overdue: (n) => (n === 1 ? 'an overdue payment' : `${n} overdue payments`),
  review_received: (n) => (n === 1 ? 'a new review' : `${n} new reviews`),
  report_resolved: (n) =>
    n === 1 ? 'a report of yours reviewed' : `${n} reports of yours reviewed`,
};

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

export interface DigestMailInput {
  /** The recipient's own username, null when they have none. */
  username: string | null;
  counts: DigestCounts;
  /** The web app's inbox page, e.g. `https://raly.example.com/notifications`. */
  inboxUrl: string;
  /** The one-click unsubscribe page of this e-mail's category. */
  unsubscribeUrl: string;
}

export interface DigestMail {
  subject: string;
  text: string;
  html: string;
}

/** @returns the number of items the counts tell of */
export const itemsOf = (counts: DigestCounts): number =>
  Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);

/**
 * Renders the digest.
 * @throws Error when MJML finds the template invalid (a fault of this file)
 */
export async function renderDigestMail(input: DigestMailInput): Promise<DigestMail> {
  const total = itemsOf(input.counts);
  const lines = (Object.entries(input.counts) as [NotificationKind, number][])
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => lineOf[kind](n));
  const greeting = input.username ? `Hi ${input.username},` : 'Hi,';
  const subject =
    total === 1
      ? 'You have 1 unread notification on Raly'
      : `You have ${total} unread notifications on Raly`;
  const intro = 'While you were away, this happened on Raly:';
  const text = [
    greeting,
    '',
    intro,
    ...lines.map((line) => `- ${line}`),
    '',
    `See them: ${input.inboxUrl}`,
    '',
    `Stop these e-mails: ${input.unsubscribeUrl}`,
    '',
  ].join('\n');
  const { html, errors } = await mjml2html(
    `<mjml>
  <mj-head>
    <mj-title>${escapeHtml(subject)}</mj-title>
    <mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /></mj-attributes>
  </mj-head>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text font-size="16px">${escapeHtml(greeting)}</mj-text>
        <mj-text>${escapeHtml(intro)}</mj-text>
        <mj-text><ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></mj-text>
        <mj-button href="${escapeHtml(input.inboxUrl)}">See your notifications</mj-button>
        <mj-text font-size="12px" color="#666666">You get this e-mail because you were away from Raly.
          <a href="${escapeHtml(input.unsubscribeUrl)}">Stop these e-mails</a>.</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`,
    // No web fonts: the e-mail loads nothing from elsewhere.
    { validationLevel: 'strict', fonts: {} },
  );
  if (errors.length > 0) throw new Error(`digest template: ${errors[0]!.formattedMessage}`);
  return { subject, text, html };
}
