/** What the use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { KeycloakUsers } from '../data-access/keycloak-users';
import type { UserRepository } from '../data-access/user-repository';

export interface IdentityDependencies {
  users: UserRepository;
  keycloak: KeycloakUsers;
  /** Call after a change with its event committed: publishes now instead of at the next poll. */
  eventsCommitted: () => void;
  logger: Logger;
}
