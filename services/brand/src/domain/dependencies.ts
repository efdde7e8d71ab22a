/** What the brand use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { BrandRepository } from '../data-access/brand-repository';
import type { IdentityClient } from '../data-access/identity-client';

export interface BrandDependencies {
  brands: BrandRepository;
  /** identity-profile: the username registry's API. */
  identity: IdentityClient;
  logger: Logger;
}
