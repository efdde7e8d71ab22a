/**
 * The e-mail opt-outs (RFC 8058 one-click unsubscribe): who turned off
 * which category of e-mails. Opting out is idempotent and cancels the
 * person's e-mails of the category still waiting in the mail outbox.
 */
import type { PrismaClient } from '../generated/prisma/client';
import type { EmailCategory } from '../generated/prisma/enums';

export interface EmailOptOuts {
  /**
   * Records that `personId` wants no e-mail of `category` (again: nothing changes) and cancels
   * their pending e-mails of it, in one transaction.
   * @returns how many waiting e-mails were cancelled
   */
  optOut(personId: string, category: EmailCategory): Promise<number>;
  /** @returns whether `personId` turned `category` off */
  isOptedOut(personId: string, category: EmailCategory): Promise<boolean>;
}

/** @param prisma this service's client */
export function emailOptOuts(prisma: PrismaClient): EmailOptOuts {
  return {
    optOut(personId, category) {
      return prisma.$transaction(async (tx) => {
        await tx.emailOptOut.createMany({ data: [{ personId, category }], skipDuplicates: true });
        // Every e-mail of the outbox is a digest, the one category there is.
        const { count } = await tx.mailOutbox.updateMany({
          where: { recipientId: personId, status: 'pending' },
          data: { status: 'cancelled', lastError: 'unsubscribed' },
        });
        return count;
      });
    },
    async isOptedOut(personId, category) {
      const row = await prisma.emailOptOut.findUnique({
        where: { personId_category: { personId, category } },
        select: { personId: true },
      });
      return row !== null;
    },
  };
}
