/** Everything under `/api`, one line per route group. */
import { Router } from 'express';
import { jsonBody } from '@raly/service-kit/http';
import type { Authenticator } from '../auth/keycloak';
import type { BrandClient } from '../data-access/brand-client';
import type { IdentityClient } from '../data-access/identity-client';
import type { MediaUpload } from '../data-access/media-upload';
import type { KeycloakTokens } from '../data-access/keycloak-tokens';
import type { RecordStore } from '../domain/record-store';
import type { Logger } from '@raly/service-kit/logger';
import { accountsRouter } from './accounts-router';
import { authRouter } from './auth-router';
import { healthRouter, type ReadinessCheck } from './health-router';
import { myBrandRouter, publicBrandsRouter } from './brands-router';
import { callableRouter } from './callable-router';
import { markCallable } from './error-middleware';
import { imagesRouter } from './images-router';
import { meRouter } from './me-router';
import type { RateLimits } from './rate-limit';

export interface ApiDependencies {
  authenticator: Authenticator;
  identity: IdentityClient;
  keycloak: KeycloakTokens;
  records: RecordStore;
  brands: BrandClient;
  media: MediaUpload;
  limits: RateLimits;
  logger: Logger;
  /** Readiness checks by name for `GET /api/health/ready`. */
  readiness: Record<string, ReadinessCheck>;
}

export function apiRouter({
  authenticator,
  identity,
  keycloak,
  records,
  brands,
  media,
  limits,
  logger,
  readiness,
}: ApiDependencies): Router {
  return (
    Router()
      // Before the body parser, so a body that is not JSON gets the callable error shape too.
      .use('/callable', markCallable)
      // Before the JSON parser: an upload's body is streamed through to media unread, whatever
      // its type (a parsed body could not be forwarded; imagesRouter answers 415 to non-multipart).
      .use('/images', imagesRouter(authenticator, { identity, records }, media))
      .use(jsonBody({ limit: '100kb' }))
      .use('/health', healthRouter(readiness))
      .use('/auth', authRouter(authenticator, { identity, keycloak, records, logger }, limits))
      .use('/accounts', accountsRouter(identity, keycloak, limits))
      .use('/me', meRouter(authenticator, { identity, keycloak, records, brands }, limits))
      .use('/brands', publicBrandsRouter({ brands }))
      .use('/brand', myBrandRouter(authenticator, { identity, records, brands }))
      .use('/callable', callableRouter(authenticator, identity, limits))
  );
}
