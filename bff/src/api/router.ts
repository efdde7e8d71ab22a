/** Everything under `/api`, one line per route group; probes are the kit's `/health/*`. */
import { Router } from 'express';
import type { Authenticator } from '../auth/keycloak';
import type { BrandClient } from '../data-access/brand-client';
import type { CollaborationsClient } from '../data-access/collaborations-client';
import type { IdentityClient } from '../data-access/identity-client';
import type { MediaUpload } from '../data-access/media-upload';
import type { ModerationClient } from '../data-access/moderation-client';
import type { NotificationsClient } from '../data-access/notifications-client';
import type { KeycloakTokens } from '../data-access/keycloak-tokens';
import type { OffersClient } from '../data-access/offers-client';
import type { RecordStore } from '../domain/record-store';
import type { Logger } from '@raly/service-kit/logger';
import { accountsRouter } from './accounts-router';
import { authRouter } from './auth-router';
import { invitationsRouter, myBrandRouter, publicBrandsRouter } from './brands-router';
import { callableRouter } from './callable-router';
import { collaborationImagesRouter } from './collaboration-images-router';
import { collaborationsRouter } from './collaborations-router';
import { consoleRouter } from './console-router';
import { markCallable } from './error-middleware';
import { imagesRouter } from './images-router';
import { meRouter } from './me-router';
import { notificationsRouter } from './notifications-router';
import { applicationsRouter, myBrandOffersRouter, offersRouter } from './offers-router';
import { publicProfilesRouter } from './public-router';
import type { RateLimits } from './rate-limit';
import { reportsRouter } from './reports-router';
import { unsubscribeRouter } from './unsubscribe-router';

export interface ApiDependencies {
  authenticator: Authenticator;
  identity: IdentityClient;
  keycloak: KeycloakTokens;
  records: RecordStore;
  brands: BrandClient;
  offers: OffersClient;
  collaborations: CollaborationsClient;
  notifications: NotificationsClient;
  /** Reports and the staff audit log (services/moderation). */
  moderation: ModerationClient;
  limits: RateLimits;
  logger: Logger;
}

/**
 * What `/api` serves before the kit's JSON body parser runs (`beforeBody`).
 * @returns the router mounted at `/api` ahead of the body parser
 */
export function beforeBodyRouter({
  authenticator,
  identity,
  keycloak,
  records,
  brands,
  offers,
  limits,
  media,
}: ApiDependencies & { media: MediaUpload }): Router {
  return (
    Router()
      // First: GET /api/me, the hottest read, is answered before any body parsing (its writes
      // parse their own).
      .use('/me', meRouter(authenticator, { identity, keycloak, records, brands, offers }, limits))
      // Before the body parser, so a body that is not JSON gets the callable error shape too.
      .use('/callable', markCallable)
      // Before the JSON parser: an upload's body is streamed through to media unread, whatever
      // its type (a parsed body could not be forwarded; imagesRouter answers 415 to non-multipart).
      .use('/images', imagesRouter(authenticator, { identity, records }, media))
      // A submission's image, streamed the same way; the collaboration's other routes fall through.
      .use('/collaborations', collaborationImagesRouter(authenticator, media))
  );
}

/** The JSON routes of `/api`, after the kit's body parser (`/api/me` is {@link beforeBodyRouter}'s). */
export function apiRouter({
  authenticator,
  identity,
  keycloak,
  records,
  brands,
  offers,
  collaborations,
  notifications,
  moderation,
  limits,
  logger,
}: ApiDependencies): Router {
  const offerDependencies = { identity, records, brands, offers };
  return (
    Router()
      .use('/auth', authRouter(authenticator, { identity, keycloak, records, logger }, limits))
      .use('/accounts', accountsRouter(identity, keycloak, limits))
      .use('/brands', publicBrandsRouter({ brands }))
      .use('/invitations', invitationsRouter({ identity }, limits))
      .use('/brand/offers', myBrandOffersRouter(authenticator, offerDependencies))
      .use('/brand', myBrandRouter(authenticator, { identity, records, brands }))
      .use('/offers', offersRouter(authenticator, offerDependencies, limits))
      .use('/applications', applicationsRouter(authenticator, offerDependencies))
      .use(
        '/collaborations',
        collaborationsRouter(authenticator, { collaborations, records }, limits),
      )
      .use('/notifications', notificationsRouter(authenticator, { notifications, records }, limits))
      // Public (the e-mails' link): the signed token is the authority.
      .use('/unsubscribe', unsubscribeRouter({ notifications }, limits))
      .use(
        '/reports',
        reportsRouter(
          authenticator,
          { identity, records, offers, collaborations, moderation },
          limits,
        ),
      )
      .use('/public', publicProfilesRouter({ identity, brands, offers, collaborations }))
      .use('/callable', callableRouter(authenticator, identity, limits))
      .use(
        '/console',
        consoleRouter(
          authenticator,
          {
            brands,
            identity,
            moderation,
            records,
            revocations: authenticator.revocations,
            logger,
          },
          limits,
        ),
      )
  );
}
