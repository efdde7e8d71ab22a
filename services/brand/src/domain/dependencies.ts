/** What the brand use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { Mailer } from '@raly/service-kit/mail';
import type { BrandRepository } from '../data-access/brand-repository';
import type { IdentityClient } from '../data-access/identity-client';
import type { TeamRepository } from '../data-access/team-repository';

export interface BrandDependencies {
  brands: BrandRepository;
  /** Members, roles, handles and invitations. */
  teams: TeamRepository;
  /** identity-profile: the username registry's API (brands' usernames, members' handles). */
  identity: IdentityClient;
  /** Invitation e-mails. */
  mailer: Mailer;
  /** The web app's origin: invitation links point at `${webUrl}/join/team`. */
  webUrl: string;
  logger: Logger;
}
