/**
 * The e-mail digests and their mail outbox (docs/architecture.md "E-mail
 * digests"): opening the digests due (one transaction, one sweep at a time
 * across instances), the relay's claims with a lease, and each row's end
 * (sent, cancelled, failed) or its next attempt.
 */
import type { PrismaClient } from '../generated/prisma/client';
import { categoryOfKindSql } from './preferences';
import type { NotificationKind } from '../generated/prisma/enums';

/** Held (transaction-scoped) by the one sweep that opens digests at a time. */
const SWEEP_LOCK = 0x6469_6765; // "dige"

/** What decides which digests are due, as instants. */
export interface DigestRule {
  /** People not seen since this instant are away. */
  awayBefore: Date;
  /** A person with a digest made after this instant gets none now. */
  windowStart: Date;
  /** Items older than this tell of history: never digested. */
  notBefore: Date;
  /** Digests one run opens at most. */
  limit: number;
}

/** A claimed e-mail of the outbox. */
export interface ClaimedMail {
  id: string;
  digestId: string;
  recipientId: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

/** The still-unread items of a digest's range, counted by kind. */
export type DigestCounts = Partial<Record<NotificationKind, number>>;

export interface DigestStore {
  /**
   * Opens a digest and its e-mail for each away person with unread items they missed (made after
   * they were last seen and after their previous digest's range), no digest within the window,
   * the digest's e-mail on and, of those items, only the ones whose category's e-mail is on
   * (none left: no digest). When more are due than `rule.limit`, those never mailed come
   * first, then those mailed longest ago, each in the order their oldest item arrived: a large
   * due set is worked through in turns, and no one waits behind people mailed every window.
   * @returns how many were opened (0 when another instance's sweep holds the lock)
   */
  openDue(rule: DigestRule): Promise<number>;
  /**
   * Claims due pending e-mails (FOR UPDATE SKIP LOCKED): each is hidden from other claims for
   * `leaseMs` and its attempts are counted up.
   */
  claimMail(limit: number, leaseMs: number): Promise<ClaimedMail[]>;
  /** The items of the digest's range still unread now whose category's e-mail is on, by kind. */
  unreadOf(digestId: string): Promise<DigestCounts>;
  /** Marks an e-mail sent (after the SMTP server accepted it). */
  markSent(mailId: string): Promise<void>;
  /** Ends an e-mail unsent: nothing left to tell, no address, or out of attempts. */
  end(mailId: string, status: 'cancelled' | 'failed', reason: string): Promise<void>;
  /** Schedules the next attempt of an e-mail. */
  retryAt(mailId: string, at: Date, error: string): Promise<void>;
}

/** @param prisma this service's client */
export function digestStore(prisma: PrismaClient): DigestStore {
  return {
    openDue(rule) {
      return prisma.$transaction(async (tx) => {
        const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`
          SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS locked`;
        if (!lock?.locked) return 0;
        return tx.$executeRaw`
          WITH due AS (
            SELECT n.recipient_id AS person_id,
                   coalesce(last.through_sequence, 0) AS after_sequence,
                   max(n.sequence) AS through_sequence
            FROM notifications n
            LEFT JOIN presence p ON p.person_id = n.recipient_id
            LEFT JOIN LATERAL (
              SELECT d.through_sequence, d.created FROM digests d
              WHERE d.person_id = n.recipient_id ORDER BY d.created DESC LIMIT 1
            ) last ON true
            WHERE n.read_at IS NULL
              AND n.created >= ${rule.notBefore}
              AND (p.seen_at IS NULL OR p.seen_at < ${rule.awayBefore})
              AND (p.seen_at IS NULL OR n.created > p.seen_at)
              AND n.sequence > coalesce(last.through_sequence, 0)
              AND (last.created IS NULL OR last.created <= ${rule.windowStart})
              AND NOT EXISTS (
                SELECT 1 FROM notification_preferences o
                WHERE o.person_id = n.recipient_id AND o.channel = 'email'
                  AND (o.category = 'digest' OR o.category::text = ${categoryOfKindSql('n.kind')}))
            GROUP BY n.recipient_id, last.through_sequence, last.created
            ORDER BY last.created ASC NULLS FIRST, min(n.sequence), n.recipient_id
            LIMIT ${rule.limit}
          ), opened AS (
            INSERT INTO digests (id, person_id, after_sequence, through_sequence)
            SELECT gen_random_uuid(), person_id, after_sequence, through_sequence FROM due
            RETURNING id, person_id
          )
          INSERT INTO mail_outbox (id, digest_id, recipient_id)
          SELECT gen_random_uuid(), id, person_id FROM opened`;
      });
    },
    async claimMail(limit, leaseMs) {
      const rows = await prisma.$queryRaw<
        { id: string; digest_id: string; recipient_id: string; attempts: number }[]
      >`
        UPDATE mail_outbox SET attempts = attempts + 1,
          next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
        WHERE id IN (
          SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, digest_id, recipient_id, attempts`;
      return rows.map((row) => ({
        id: row.id,
        digestId: row.digest_id,
        recipientId: row.recipient_id,
        attempts: row.attempts,
      }));
    },
    async unreadOf(digestId) {
      const rows = await prisma.$queryRaw<{ kind: NotificationKind; items: number }[]>`
        SELECT n.kind, count(*)::int AS items
        FROM digests d JOIN notifications n ON n.recipient_id = d.person_id
          AND n.sequence > d.after_sequence AND n.sequence <= d.through_sequence
        WHERE d.id = ${digestId}::uuid AND n.read_at IS NULL
          AND NOT EXISTS (
            SELECT 1 FROM notification_preferences o
            WHERE o.person_id = d.person_id AND o.channel = 'email'
              AND o.category::text = ${categoryOfKindSql('n.kind')})
        GROUP BY n.kind`;
      return Object.fromEntries(rows.map((row) => [row.kind, row.items]));
    },
    async markSent(mailId) {
      await prisma.mailOutbox.update({
        where: { id: mailId },
        data: { status: 'sent', sentAt: new Date(), lastError: null },
      });
    },
    async end(mailId, status, reason) {
      await prisma.mailOutbox.update({
        where: { id: mailId },
        data: { status, lastError: reason.slice(0, 1000) },
      });
    },
    async retryAt(mailId, at, error) {
      await prisma.mailOutbox.update({
        where: { id: mailId },
        data: { nextAttemptAt: at, lastError: error.slice(0, 1000) },
      });
    },
  };
}
