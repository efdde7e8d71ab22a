/**
 * The service's copy of brands (table `brands`), fed by `brand.brand.v1`
 * and by `GET /brands/:id` (as a member) for a brand whose event has not
 * arrived yet: the public summary offers show, and whether the brand is
 * suspended. Writes are version-checked like the users' copy.
 */
import type { BrandSummary } from '@raly/contracts/offers';
import { isUuid, type Queryable } from './sql';

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

interface BrandRow {
  id: string;
  version: number;
  username: string;
  company: string;
  profile_img: string;
  is_verified: boolean;
  is_suspended: boolean;
}

const toKnownBrand = (row: BrandRow): KnownBrand => ({
  id: row.id,
  version: row.version,
  username: row.username,
  company: row.company,
  profileImg: row.profile_img,
  isVerified: row.is_verified,
  isSuspended: row.is_suspended,
});

/** The repository over the service's pg pool. */
export function brandRepository(db: Queryable): BrandRepository {
  const findById = async (id: string) => {
    if (!isUuid(id)) return null;
    const { rows } = await db.query<BrandRow>('SELECT * FROM brands WHERE id = $1', [id]);
    return rows[0] ? toKnownBrand(rows[0]) : null;
  };
  return {
    findById,
    async save(brand) {
      if (!isUuid(brand.id)) return brand;
      await db.query(
        `INSERT INTO brands (id, version, username, company, profile_img, is_verified, is_suspended)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET
           version = EXCLUDED.version, username = EXCLUDED.username, company = EXCLUDED.company,
           profile_img = EXCLUDED.profile_img, is_verified = EXCLUDED.is_verified,
           is_suspended = EXCLUDED.is_suspended, updated_at = now()
         WHERE brands.version < EXCLUDED.version`,
        [
          brand.id,
          brand.version,
          brand.username,
          brand.company,
          brand.profileImg,
          brand.isVerified,
          brand.isSuspended,
        ],
      );
      return (await findById(brand.id)) ?? brand;
    },
  };
}
