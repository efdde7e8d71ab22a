/**
 * The BFF's HTTP API (docs/api.md "bff"): the bodies the browser sends to
 * `/api` and the answers it gets back, plus the token answer of Keycloak's
 * token endpoint that the BFF (and the test helpers) read. Types only, with
 * no code at run time, so the web app can import this module from any chunk
 * without pulling in zod; the zod schemas that check these bodies live in
 * `./validation` and are referred to here by their inferred types.
 */
import type { LeaveReview, PublicBrandPage, PublicCreatorPage } from './collaboration-reviews';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
  MarkSeen,
  MessagesPage,
  SendMessage,
} from './collaborations';
import type {
  CancelCollaboration,
  MarkPaid,
  ReviewDeliverable,
  SetDeliverables,
  SubmitDeliverable,
} from './collaboration-work';
import type { Interest } from './constants';
import type { ImageStored } from './events';
import type {
  ApplicationForm,
  ApplicationRecord,
  BrandOffer,
  CreateOffer,
  OfferDetail,
  OfferRecord,
  Page,
  UpdateOffer,
} from './offers';
import type { BrandRecord, UserRecord } from './records';
import type {
  BrandOnboardingStepForm,
  BrandProfileForm,
  BrandUserAccountUpdate,
  CreateAccountCommand,
  CreatorAccountUpdate,
  ForgotPasswordForm,
  LoginForm,
  OnboardingStep,
} from './validation';

/** `{ data }`, the success envelope of every answer. */
export interface DataEnvelope<T> {
  data: T;
}

/** The error envelope of every refusal; `message` is the spec's text where it has one. */
export interface ErrorEnvelope {
  error: { code: string; message: string; fields?: Record<string, string> };
}

/**
 * The signed-in user's view of themself (GET /api/me and the answer of
 * every command on it): their user record and, for a brand user, their brand.
 */
export interface Me {
  user: UserRecord;
  brand: BrandRecord | null;
}

/**
 * The session the BFF answers on sign-in, registration and refresh (password
 * and refresh grants of its confidential sign-in client `raly-bff-login`,
 * docs/adr/0009); the SPA renews it with POST /api/auth/refresh.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  /** Lifetime of the access token, in seconds. */
  expiresIn: number;
  /** Lifetime of the refresh token, in seconds. */
  refreshExpiresIn: number;
}

/** Keycloak's token endpoint answer (OAuth 2.0 RFC 6749 §5.1, OpenID Connect Core §3.1.3.3). */
export interface KeycloakTokenAnswer {
  access_token: string;
  token_type: string;
  /** Seconds. */
  expires_in: number;
  refresh_token?: string;
  /** Seconds (Keycloak's own field). */
  refresh_expires_in?: number;
  /** Present when the grant asked for scope `openid`. */
  id_token?: string;
}

/** POST /api/auth/logout. */
export interface LogoutRequest {
  refreshToken: string;
}

/** POST /api/auth/refresh: the token set's refresh token (spent by the call). */
export interface RefreshRequest {
  refreshToken: string;
}

/** POST /api/auth/reset-password (spec §3 "Password reset action"). */
export interface ResetPasswordRequest {
  /** The oobCode query value of the e-mailed link. */
  actionCode: string;
  password: string;
}

/** POST /api/auth/verify-password (validateUserCredientials, spec §7). */
export interface VerifyPasswordRequest {
  password: string;
}

/**
 * PATCH /api/me: a partial account update, plus the current password,
 * required when the e-mail changes. Checked by identity-profile with the
 * schema of the user's kind (`creatorAccountUpdateSchema` or
 * `brandUserAccountUpdateSchema`; a brand user's notifications carry
 * `marketing` only), so this type is the union of their fields.
 */
export type MeUpdate = Omit<CreatorAccountUpdate, 'notifications'> &
  Omit<BrandUserAccountUpdate, 'notifications'> & {
    notifications?: { offers?: boolean; marketing: boolean };
    currentPassword?: string;
  };

/** POST /api/me/onboarding (updateOnboardingStatus(step, true), spec §7). */
export interface OnboardingStepRequest {
  step: OnboardingStep;
}

/**
 * POST /api/me/onboarding/brand: the brand step of brand onboarding (spec
 * §4.1), saved on the brand like the brand profile form, then the `brand`
 * flag set.
 */
export type BrandStepRequest = BrandOnboardingStepForm;

/**
 * GET /api/brand/offers/summary: the figures of the brand dashboard, counted
 * over every offer of the caller's brand.
 */
export interface BrandOffersSummary {
  /** Offers by status. */
  offers: { open: number; draft: number; closed: number };
  /** Applications waiting for the brand's decision (status `pending`), over all its offers. */
  pendingApplications: number;
}

/** PUT /api/me/interests (updateInterests, spec §7). */
export interface InterestsRequest {
  interests: Interest[];
}

/**
 * Every `/api` route with its request body and the `data` of its answer
 * (docs/api.md). Callables and uploads have their own protocols
 * (`./callable`, multipart) and only their answers are listed.
 */
export interface BffRoutes {
  'POST /api/auth/login': { body: LoginForm; answer: TokenSet };
  'POST /api/auth/refresh': { body: RefreshRequest; answer: TokenSet };
  'POST /api/auth/logout': { body: LogoutRequest; answer: true };
  'POST /api/auth/forgot-password': { body: ForgotPasswordForm; answer: true };
  'POST /api/auth/reset-password': { body: ResetPasswordRequest; answer: true };
  'POST /api/auth/verify-password': { body: VerifyPasswordRequest; answer: true };
  'POST /api/accounts': { body: CreateAccountCommand; answer: TokenSet };
  'GET /api/me': { body: never; answer: Me };
  'PATCH /api/me': { body: MeUpdate; answer: Me };
  'POST /api/me/onboarding': { body: OnboardingStepRequest; answer: Me };
  'POST /api/me/onboarding/brand': { body: BrandStepRequest; answer: Me };
  'PUT /api/me/interests': { body: InterestsRequest; answer: Me };
  'GET /api/brands/:username': { body: never; answer: BrandRecord };
  'PATCH /api/brand': { body: BrandProfileForm; answer: BrandRecord };
  'POST /api/images/:ownerType/:kind': { body: FormData; answer: ImageStored };
  // Offers. GET /api/offers takes `OffersQuery` in the query string.
  'GET /api/offers': { body: never; answer: Page<OfferRecord> };
  'GET /api/offers/:id': { body: never; answer: OfferDetail };
  'POST /api/offers': { body: CreateOffer; answer: OfferRecord };
  'PATCH /api/offers/:id': { body: UpdateOffer; answer: OfferRecord };
  'POST /api/offers/:id/open': { body: never; answer: OfferRecord };
  'POST /api/offers/:id/close': { body: never; answer: OfferRecord };
  'GET /api/brand/offers': { body: never; answer: BrandOffer[] };
  'GET /api/brand/offers/summary': { body: never; answer: BrandOffersSummary };
  'GET /api/offers/:id/applications': { body: never; answer: ApplicationRecord[] };
  'POST /api/offers/:id/applications': { body: ApplicationForm; answer: ApplicationRecord };
  'GET /api/me/applications': { body: never; answer: ApplicationRecord[] };
  'POST /api/applications/:id/withdraw': { body: never; answer: ApplicationRecord };
  'POST /api/applications/:id/accept': { body: never; answer: ApplicationRecord };
  'POST /api/applications/:id/decline': { body: never; answer: ApplicationRecord };
  // Collaborations. GET …/messages takes `MessagesQuery` in the query string.
  'GET /api/collaborations': { body: never; answer: CollaborationRecord[] };
  'GET /api/collaborations/:id': { body: never; answer: CollaborationRecord };
  'GET /api/collaborations/:id/messages': { body: never; answer: MessagesPage };
  'POST /api/collaborations/:id/messages': {
    body: SendMessage;
    answer: CollaborationMessageRecord;
  };
  'POST /api/collaborations/:id/seen': { body: MarkSeen; answer: CollaborationRecord };
  'PUT /api/collaborations/:id/deliverables': {
    body: SetDeliverables;
    answer: CollaborationRecord;
  };
  'POST /api/collaborations/:id/deliverables/:deliverableId/submissions': {
    body: SubmitDeliverable;
    answer: CollaborationRecord;
  };
  'POST /api/collaborations/:id/deliverables/:deliverableId/review': {
    body: ReviewDeliverable;
    answer: CollaborationRecord;
  };
  'POST /api/collaborations/:id/payment/paid': { body: MarkPaid; answer: CollaborationRecord };
  'POST /api/collaborations/:id/payment/received': { body: never; answer: CollaborationRecord };
  'POST /api/collaborations/:id/cancel': { body: CancelCollaboration; answer: CollaborationRecord };
  'POST /api/collaborations/:id/review': { body: LeaveReview; answer: CollaborationRecord };
  // Public profiles: anyone, signed in or not.
  'GET /api/public/users/:username': { body: never; answer: PublicCreatorPage };
  'GET /api/public/brands/:username': { body: never; answer: PublicBrandPage };
}

/** The request body of a route of {@link BffRoutes}. */
export type BffRequest<Route extends keyof BffRoutes> = BffRoutes[Route]['body'];
/** The `data` of a route's answer. */
export type BffAnswer<Route extends keyof BffRoutes> = BffRoutes[Route]['answer'];
