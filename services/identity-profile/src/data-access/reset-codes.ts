/**
 * Password reset codes in Postgres (table `password_reset_codes`). Only the
 * sha256 of a code is stored, so a database leak gives no usable link.
 * Claiming is one conditional UPDATE, so two resets racing for one code
 * cannot both win.
 */
import type { PrismaClient } from '../generated/prisma/client';

export interface ResetCodeRepository {
  /** Stores a new code (its hash) for the user, usable until `expiresAt`. */
  issue(code: { codeHash: string; userId: string; expiresAt: Date }): Promise<void>;
  /**
   * Spends the code when it exists, is unused and has not expired at `now`.
   * @returns the user id it belongs to, or null when it cannot be used
   */
  claim(codeHash: string, now: Date): Promise<string | null>;
  /** Undoes a claim (compensation when the password could not be set). */
  release(codeHash: string): Promise<void>;
  /** Marks every still-unused code of the user used, so older links die with a reset. */
  retireAllOf(userId: string, now: Date): Promise<void>;
}

/** The repository over the service's Prisma client. */
export function resetCodeRepository(prisma: PrismaClient): ResetCodeRepository {
  return {
    async issue(code) {
      await prisma.passwordResetCode.create({ data: code });
    },
    async claim(codeHash, now) {
      const code = await prisma.passwordResetCode.findUnique({
        where: { codeHash },
        select: { userId: true },
      });
      if (!code) return null;
      const { count } = await prisma.passwordResetCode.updateMany({
        where: { codeHash, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      return count === 1 ? code.userId : null;
    },
    async release(codeHash) {
      await prisma.passwordResetCode.updateMany({ where: { codeHash }, data: { usedAt: null } });
    },
    async retireAllOf(userId, now) {
      await prisma.passwordResetCode.updateMany({
        where: { userId, usedAt: null },
        data: { usedAt: now },
      });
    },
  };
}
