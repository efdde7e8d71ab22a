/** What the use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { KeycloakUsers } from '../data-access/keycloak-users';
import type { UserRepository } from '../data-access/user-repository';
import type { BrandClient } from '../data-access/brand-client';
import type { UserImageRepository } from '../data-access/user-image-repository';
import type { UsernameRegistry } from '../data-access/username-registry';

export interface IdentityDependencies {
  users: UserRepository;
  keycloak: KeycloakUsers;
  /** services/brand (brand registration saga). */
  brands: BrandClient;
  /** The one registry of usernames (creators' and brands'). */
  usernames: UsernameRegistry;
  userImages: UserImageRepository;
  logger: Logger;
}
