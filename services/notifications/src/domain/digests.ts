/**
 * E-mail digests (docs/architecture.md "E-mail digests"): a sweep opens, for
 * each away person with unread notifications they missed, one digest and
 * its e-mail in the mail outbox (at most one per digest window; none for
 * people who unsubscribed from digests, whose waiting e-mails are cancelled,
 * and only of the categories whose e-mail the person left on); the mail
 * relay sends the outbox with retries. Each e-mail is sent at least once and,
 * short of a crash between the SMTP server's acceptance and the mark, once:
 * a claim hides the row for a lease, and the row is marked sent only after
 * the server accepted it. Its `Message-ID` is the digest's, so a repeat
 * after such a crash is recognisable.
 */
import { handleError } from '@raly/service-kit/errors';
import type { ClaimedMail } from '../data-access/digests';
import { itemsOf, renderDigestMail } from './digest-mail';
import type { NotificationsDependencies } from './dependencies';
import { every, type Loop } from './loop';

/** Digests one sweep run opens at most (the rest on the next run). */
const DIGESTS_PER_RUN = 500;
/** E-mails one claim takes at most. */
const MAILS_PER_CLAIM = 20;
/** Claims one relay run makes at most, so a backlog never holds a run for long. */
const CLAIMS_PER_RUN = 10;
/** How long a claimed e-mail stays hidden from other claims: more than one send may take. */
const LEASE_MS = 120_000;

/**
 * Opens the digests due now.
 * @returns how many were opened
 */
export function openDueDigests(dependencies: NotificationsDependencies): Promise<number> {
  const now = dependencies.now().getTime();
  const { windowMs } = dependencies.digests;
  const { awayAfterMs } = dependencies;
  return dependencies.digests.store.openDue({
    awayBefore: new Date(now - awayAfterMs),
    windowStart: new Date(now - windowMs),
    notBefore: new Date(now - dependencies.maxAgeMs),
    limit: DIGESTS_PER_RUN,
  });
}

/** The delay before attempt `attempts + 1`, in ms: doubling from the base, at most an hour. */
export const retryDelayMs = (attempts: number, baseMs: number): number =>
  Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);

/** Sends one claimed e-mail, or schedules its next attempt, or ends it. */
async function sendMail(dependencies: NotificationsDependencies, mail: ClaimedMail) {
  const { store, contacts, mailer, settings } = dependencies.digests;
  try {
    // Unsubscribed after the digest was opened (that cancels the pending row; not a claimed one).
    if (!(await dependencies.preferences.isOn(mail.recipientId, 'digest', 'email')))
      return await store.end(mail.id, 'cancelled', 'unsubscribed');
    const counts = await store.unreadOf(mail.digestId);
    if (itemsOf(counts) === 0)
      return await store.end(mail.id, 'cancelled', 'all read in the app or e-mails turned off');
    const contact = await contacts.contactOf(mail.recipientId);
    if (!contact) return await store.end(mail.id, 'cancelled', 'no such user');
    const content = await renderDigestMail({
      username: contact.username,
      counts,
      inboxUrl: `${settings.webUrl}/notifications`,
      unsubscribeUrl: settings.unsubscribeUrlOf(mail.recipientId),
    });
    await mailer.send({
      to: contact.email,
      ...content,
      messageId: `<digest-${mail.digestId}@raly>`,
      headers: settings.headersOf(mail.recipientId),
    });
    await store.markSent(mail.id);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (mail.attempts >= settings.maxAttempts) {
      await store.end(mail.id, 'failed', reason);
      handleError(error, dependencies.logger, { component: 'mail-relay', mailId: mail.id });
      return;
    }
    const at = new Date(
      dependencies.now().getTime() + retryDelayMs(mail.attempts, settings.retryMs),
    );
    await store.retryAt(mail.id, at, reason);
    dependencies.logger.warn(
      { mailId: mail.id, attempts: mail.attempts, nextAttemptAt: at.toISOString(), reason },
      'digest e-mail not sent: retrying later',
    );
  }
}

/**
 * Sends the due e-mails of the outbox, claim by claim.
 * @returns how many were claimed
 */
export async function relayMail(dependencies: NotificationsDependencies): Promise<number> {
  let claimed = 0;
  for (let claim = 0; claim < CLAIMS_PER_RUN; claim++) {
    const mails = await dependencies.digests.store.claimMail(MAILS_PER_CLAIM, LEASE_MS);
    for (const mail of mails) await sendMail(dependencies, mail);
    claimed += mails.length;
    if (mails.length < MAILS_PER_CLAIM) break;
  }
  return claimed;
}

/** Starts the digest sweep and the mail relay. */
export function startDigests(dependencies: NotificationsDependencies): Loop {
  const { sweepMs, relayMs } = dependencies.digests;
  const sweep = every(sweepMs, 'digests', dependencies, async () => {
    const opened = await openDueDigests(dependencies);
    if (opened > 0) dependencies.logger.info({ opened }, 'digests opened');
  });
  const relay = every(relayMs, 'mail-relay', dependencies, () => relayMail(dependencies));
  return {
    async stop() {
      await Promise.all([sweep.stop(), relay.stop()]);
    },
  };
}
