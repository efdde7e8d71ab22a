/**
 * The staff console's actions (docs/console.md): a staff member's decision, with who made it,
 * on whom, when and why, carried to the owning service.
 */
import type { BrandRecord } from '@raly/contracts/records';
import type { Logger } from '@raly/service-kit/logger';
import { z } from 'zod';
import type { StaffCaller } from '../auth/keycloak';
import type { BrandClient } from '../data-access/brand-client';

export interface ConsoleDependencies {
  brands: BrandClient;
  logger: Logger;
}

/** The body of PUT /api/console/brands/:id/verification. */
export const brandVerificationDecisionSchema = z
  .object({
    isVerified: z.boolean(),
    /** Why the staff member decided so; kept with the decision. */
    reason: z.string().trim().min(3).max(1000),
  })
  .strict();

/**
 * PUT /api/console/brands/:id/verification: turns a brand's verified badge on or off. The badge
 * reaches offers and public pages through the brand's `brand.brand.updated` event.
 * @param input `brandVerificationDecisionSchema`, unparsed
 * @returns the brand after the decision
 * @throws AppError invalid-argument (the body), not-found (no such brand), unavailable
 */
export async function decideBrandVerification(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  brandId: string,
  input: unknown,
): Promise<BrandRecord> {
  const decision = brandVerificationDecisionSchema.parse(input);
  const brand = await dependencies.brands.setVerified(brandId, decision.isVerified);
  dependencies.logger.info(
    {
      staffUserId: staff.userId,
      action: decision.isVerified ? 'brand.verify' : 'brand.unverify',
      brandId,
      reason: decision.reason,
      at: new Date().toISOString(),
    },
    'staff decision',
  );
  return brand;
}
