/** What the offers use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { ApplicationRepository } from '../data-access/application-repository';
import type { BrandClient } from '../data-access/brand-client';
import type { BrandRepository } from '../data-access/brand-repository';
import type { IdentityClient } from '../data-access/identity-client';
import type { OfferRepository } from '../data-access/offer-repository';
import type { UserRepository } from '../data-access/user-repository';

export interface OffersDependencies {
  offers: OfferRepository;
  applications: ApplicationRepository;
  /** The copy of users (identity.user.v1). */
  users: UserRepository;
  /** The copy of brands (brand.brand.v1). */
  brandCopies: BrandRepository;
  /** identity-profile: `GET /users/me` for a caller not yet known, `GET /users/me/handle` for a decider. */
  identity: IdentityClient;
  /** services/brand: `GET /brands/:id` for a brand not yet known. */
  brands: BrandClient;
  logger: Logger;
}
