/**
 * The service's copy of brands (table `brands`), fed by `brand.brand.v1`
 * and by `GET /brands/:id` (as a member) for a brand whose event has not
 * arrived yet: the public summary offers show, and whether the brand is
 * suspended. Writes are version-checked like the users' copy.
 */
import type { BrandSummary } from '@raly/contracts/offers';
import type { Brand, PrismaClient } from '../generated/prisma/client';
import { storeIfNewer } from './copies';
import { isUuid } from './database';

/** What the offers service knows of a brand. */
export interface KnownBrand extends BrandSummary {
  version: number;
  isSuspended: boolean;
}

export interface BrandRepository {
  findById(id: string): Promise<KnownBrand | null>;
  /**
   * Saves the copy unless the stored one is as new or newer (by version).
   * @returns the copy stored afterwards
   */
  save(brand: KnownBrand): Promise<KnownBrand>;
}

const toKnownBrand = (row: Brand): KnownBrand => ({
  id: row.id,
  version: row.version,
  username: row.username,
  company: row.company,
  profileImg: row.profileImg,
  isVerified: row.isVerified,
  isSuspended: row.isSuspended,
});

/** The repository over the service's Prisma client. */
export function brandRepository(prisma: PrismaClient): BrandRepository {
  const findById = async (id: string) => {
    if (!isUuid(id)) return null;
    const row = await prisma.brand.findUnique({ where: { id } });
    return row ? toKnownBrand(row) : null;
  };
  return {
    findById,
    async save(brand) {
      if (!isUuid(brand.id)) return brand;
      const { id, ...columns } = brand;
      const stored = await storeIfNewer({
        updateOlder: () =>
          prisma.brand.updateMany({ where: { id, version: { lt: brand.version } }, data: columns }),
        insertAbsent: () => prisma.brand.createMany({ data: brand, skipDuplicates: true }),
      });
      return stored ? brand : ((await findById(id)) ?? brand);
    },
  };
}
