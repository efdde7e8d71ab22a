/**
 * Fuzz of every BFF route, in front of the real identity-profile,
 * brand, media, offers, collaborations, notifications and moderation services: seeded, bounded malformed, oversized, nested,
 * control-character and wrong-type requests, uploads cut short, malformed
 * paths, and missing, forged and ID tokens (see `@raly/service-kit/fuzz`).
 * No 5xx, no hang, no crash, every refusal `{ error: { code, message } }`
 * (callables with `status`). `FUZZ_SEED` repeats a run, `FUZZ_RUNS` sets the
 * requests per route.
 */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { beforeAll, afterAll } from 'vitest';
import { INTERESTS } from '@raly/contracts/constants';
import { unsubscribeToken } from '@raly/notifications/unsubscribe';
import type { RunningBff } from '../src/app';
import { eventually, testStack, uniqueToken } from '@raly/test-support';
import { callBff, startTestBff } from '@raly/test-support/bff';
import {
  deleteFuzzUsers,
  describeFuzz,
  type FuzzCredential,
  fuzzCredentials,
  type FuzzRoute,
  recordExpressApps,
  UNIQUE,
} from '@raly/test-support/fuzz';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';
import type { TokenSet } from '@raly/contracts/bff-api';
import type { CollaborationRecord } from '@raly/contracts/collaborations';

const marker = `fz${uniqueToken(6)}`;

/** A valid offer form, open at once when created with `open: true`. */
const offerForm = {
  title: 'A fuzzed launch video',
  brief: 'Film a sixty second video showing how you use our app every morning.',
  interests: [INTERESTS[0]],
  platforms: ['x'],
  deliverables: 'One video and two posts.',
  compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
  creatorsWanted: 2,
  applyBy: new Date(Date.now() + 7 * 86_400_000).toISOString(),
};
const applicationForm = {
  pitch: 'I film daily videos for forty thousand people who love them.',
  proposedRate: { amountMinor: 40_000, currency: 'EUR' },
};

let system: RalySystem;
let bff: RunningBff;
let recording: ReturnType<typeof recordExpressApps>;
let routes: FuzzRoute[];
let credentials: FuzzCredential[];

beforeAll(async () => {
  system = await startSystem({
    media: true,
    offers: true,
    collaborations: true,
    notifications: true,
    moderation: true,
  });
  // The kit's express copy (the default): the BFF's app is a kit app (createHttpApp).
  recording = recordExpressApps();
  try {
    bff = await startTestBff(await testStack(), {
      IDENTITY_URL: system.identityUrl,
      BRAND_URL: system.brandUrl,
      MEDIA_URL: system.mediaUrl,
      OFFERS_URL: system.offersUrl,
      COLLABORATIONS_URL: system.collaborationsUrl,
      NOTIFICATIONS_URL: system.notificationsUrl,
      MODERATION_URL: system.moderationUrl,
      // The fuzz sends far more than people do: past a limit it would only meet 429s.
      RATE_LIMIT_SEND_MESSAGE_PER_USER: { points: 1_000_000, durationSeconds: 1 },
      RATE_LIMIT_SUBMIT_DELIVERABLE_PER_USER: { points: 1_000_000, durationSeconds: 1 },
      RATE_LIMIT_LEAVE_REVIEW_PER_USER: { points: 1_000_000, durationSeconds: 1 },
      RATE_LIMIT_MARK_READ_PER_USER: { points: 1_000_000, durationSeconds: 1 },
      RATE_LIMIT_UPDATE_PREFERENCES_PER_USER: { points: 1_000_000, durationSeconds: 1 },
      RATE_LIMIT_UNSUBSCRIBE_PER_IP: { points: 1_000_000, durationSeconds: 1 },
      RATE_LIMIT_REPORTS_PER_USER: { points: 1_000_000, durationSeconds: 1 },
    });
  } finally {
    recording.stop();
  }
  const creator = await registeredCreator(system);
  const brand = await registeredBrand(system);
  const signIn = await callBff<TokenSet>(bff, 'POST', '/api/auth/login', {
    body: { email: creator.registration.email, password: creator.registration.password },
  });
  // The creator finishes onboarding, so they can apply; then an open offer of the brand and the
  // creator's application to it, so the fuzz reaches past "not found".
  const asCreator = { token: creator.accessToken };
  await callBff(bff, 'PUT', '/api/me/interests', {
    ...asCreator,
    body: { interests: [INTERESTS[0]] },
  });
  for (const step of ['terms', 'connects', 'wallet'])
    await callBff(bff, 'POST', '/api/me/onboarding', { ...asCreator, body: { step } });
  const offer = await callBff<{ id: string }>(bff, 'POST', '/api/offers', {
    token: brand.accessToken,
    body: { ...offerForm, open: true },
  });
  const offerIds = [offer.body.data.id, 'no-such-offer'];
  const application = await callBff<{ id: string }>(
    bff,
    'POST',
    `/api/offers/${offer.body.data.id}/applications`,
    { token: creator.accessToken, body: applicationForm },
  );
  assert.equal(application.status, 201, JSON.stringify(application.body));
  const applicationIds = [application.body.data.id, 'no-such-application'];
  // A second application, accepted, so the fuzz reaches a collaboration its creator and brand share.
  const acceptedOffer = await callBff<{ id: string }>(bff, 'POST', '/api/offers', {
    token: brand.accessToken,
    body: { ...offerForm, open: true },
  });
  const acceptedApplication = await callBff<{ id: string }>(
    bff,
    'POST',
    `/api/offers/${acceptedOffer.body.data.id}/applications`,
    { token: creator.accessToken, body: applicationForm },
  );
  const accepted = await callBff(
    bff,
    'POST',
    `/api/applications/${acceptedApplication.body.data.id}/accept`,
    { token: brand.accessToken },
  );
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  const collaboration = await eventually(
    'the collaboration of the accepted application',
    async () => {
      const list = await callBff<CollaborationRecord[]>(bff, 'GET', '/api/collaborations', {
        token: creator.accessToken,
      });
      return list.body.data?.find(
        (record) => record.applicationId === acceptedApplication.body.data.id,
      );
    },
  );
  const collaborationIds = [collaboration.id, 'no-such-collaboration'];
  const deliverableIds = [
    ...collaboration.deliverables.map((deliverable) => deliverable.id),
    'no-such-deliverable',
  ];
  credentials = fuzzCredentials({
    users: { creator: creator.accessToken, 'brand user': brand.accessToken },
    idToken: signIn.body.data.idToken,
  });
  const email = `${marker}${UNIQUE}@raly.test`;
  const username = `${marker}${UNIQUE}`;
  const registration = {
    username,
    email,
    password: 'pw-fuzz-1',
    confirmPassword: 'pw-fuzz-1',
    agreeTerms: true,
  };
  // Every route of the BFF (docs/api.md); /api/accounts and the callable twice, once per body.
  routes = [
    {
      method: 'POST',
      path: '/api/auth/login',
      auth: 'none',
      body: 'json',
      base: { email, password: 'pw-fuzz-1' },
    },
    {
      method: 'POST',
      path: '/api/auth/refresh',
      auth: 'none',
      body: 'json',
      base: { refreshToken: 'a.b.c' },
    },
    {
      method: 'POST',
      path: '/api/auth/logout',
      auth: 'user',
      body: 'json',
      base: { refreshToken: 'a.b.c' },
    },
    {
      method: 'POST',
      path: '/api/auth/forgot-password',
      auth: 'none',
      body: 'json',
      base: { email },
    },
    {
      method: 'POST',
      path: '/api/auth/reset-password',
      auth: 'none',
      body: 'json',
      base: { actionCode: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', password: 'pw-fuzz-2' },
    },
    {
      method: 'POST',
      path: '/api/auth/verify-password',
      auth: 'user',
      body: 'json',
      base: { password: 'pw-not-theirs' },
    },
    {
      method: 'POST',
      path: '/api/accounts',
      auth: 'none',
      body: 'json',
      base: { isBrand: false, registration },
    },
    {
      method: 'POST',
      path: '/api/accounts',
      auth: 'none',
      body: 'json',
      base: {
        isBrand: true,
        registration: {
          ...registration,
          firstName: 'Fuzz',
          lastName: 'Fuzz',
          company: 'Fuzz Company',
          website: 'https://fuzz.example',
        },
      },
    },
    { method: 'GET', path: '/api/me', auth: 'user', body: 'none' },
    {
      method: 'PATCH',
      path: '/api/me',
      auth: 'user',
      body: 'json',
      base: {
        username,
        email,
        currentPassword: 'pw-not-theirs',
        phoneNumber: '+15555550100',
        interests: [INTERESTS[0]],
        notifications: { offers: true, marketing: false },
      },
    },
    {
      method: 'POST',
      path: '/api/me/onboarding',
      auth: 'user',
      body: 'json',
      base: { step: 'terms' },
    },
    {
      method: 'POST',
      path: '/api/me/onboarding/brand',
      auth: 'user',
      body: 'json',
      base: {
        company: 'Fuzz Goods',
        websiteUrl: 'https://fuzz.example',
        bio: 'A brand that makes things for people who like things.',
      },
    },
    {
      method: 'PUT',
      path: '/api/me/interests',
      auth: 'user',
      body: 'json',
      base: { interests: [INTERESTS[0], INTERESTS[1]] },
    },
    {
      method: 'GET',
      path: '/api/brands/:username',
      auth: 'none',
      body: 'none',
      params: { username: [brand.registration.username, 'nosuchbrand'] },
    },
    {
      method: 'PATCH',
      path: '/api/brand',
      auth: 'user',
      body: 'json',
      base: {
        username,
        company: 'Fuzz Company',
        websiteUrl: 'https://fuzz.example',
        bio: 'A brand changed by the fuzz test, with a bio long enough to pass.',
        socials: { x: 'fuzz', instagram: 'fuzz', threads: 'fuzz', discord: 'fuzz' },
      },
    },
    {
      method: 'POST',
      path: '/api/images/:ownerType/:kind',
      auth: 'user',
      body: 'multipart',
      params: { ownerType: ['user', 'brand'], kind: ['profile', 'cover'] },
      weight: 2,
    },
    {
      method: 'POST',
      path: '/api/callable/:name',
      auth: 'optional-user',
      body: 'callable',
      callable: true,
      base: { email },
      params: { name: ['checkEmailExists'] },
    },
    {
      method: 'POST',
      path: '/api/callable/:name',
      auth: 'optional-user',
      body: 'callable',
      callable: true,
      base: { username },
      params: { name: ['checkUsernameExists'] },
    },
    // Offers
    {
      method: 'GET',
      path: '/api/offers',
      auth: 'user',
      body: 'none',
      queries: ['', 'interest=Gaming,AI&platform=x&q=launch&page=2&pageSize=10', 'page=500'],
    },
    { method: 'POST', path: '/api/offers', auth: 'user', body: 'json', base: offerForm },
    {
      method: 'GET',
      path: '/api/offers/:id',
      auth: 'user',
      body: 'none',
      params: { id: offerIds },
    },
    {
      method: 'PATCH',
      path: '/api/offers/:id',
      auth: 'user',
      body: 'json',
      base: { title: 'A fuzzed offer title', creatorsWanted: 3 },
      params: { id: offerIds },
    },
    ...(['open', 'close'] as const).map((action): FuzzRoute => ({
      method: 'POST',
      path: `/api/offers/:id/${action}`,
      auth: 'user',
      body: 'none',
      params: { id: offerIds },
    })),
    {
      method: 'GET',
      path: '/api/offers/:id/applications',
      auth: 'user',
      body: 'none',
      params: { id: offerIds },
    },
    {
      method: 'POST',
      path: '/api/offers/:id/applications',
      auth: 'user',
      body: 'json',
      base: applicationForm,
      params: { id: offerIds },
    },
    { method: 'GET', path: '/api/brand/team', auth: 'user', body: 'none' },
    { method: 'GET', path: '/api/brand/invitations', auth: 'user', body: 'none' },
    {
      method: 'POST',
      path: '/api/brand/invitations',
      auth: 'user',
      body: 'json',
      // At most the brand's hourly limit of them are mailed; the rest answer 429.
      base: { email: `${marker}${UNIQUE}@raly.test` },
    },
    {
      method: 'DELETE',
      path: '/api/brand/invitations/:invitationId',
      auth: 'user',
      body: 'none',
      params: { invitationId: ['00000000-0000-4000-8000-000000000000', 'x'] },
    },
    {
      method: 'PUT',
      path: '/api/brand/members/me/handle',
      auth: 'user',
      body: 'json',
      base: { handle: `${marker}${UNIQUE}` },
    },
    {
      method: 'PATCH',
      path: '/api/brand/members/:userId',
      auth: 'user',
      body: 'json',
      base: { isAdmin: false },
      params: { userId: [brand.userId, creator.userId] },
    },
    {
      method: 'DELETE',
      path: '/api/brand/members/:userId',
      auth: 'user',
      body: 'none',
      // The brand's only admin cannot leave (409); the creator is no member (404).
      params: { userId: [brand.userId, creator.userId] },
    },
    {
      method: 'POST',
      path: '/api/invitations/preview',
      auth: 'none',
      body: 'json',
      base: { token: `${marker}${UNIQUE}` },
    },
    {
      method: 'POST',
      path: '/api/accounts/members',
      auth: 'none',
      body: 'json',
      base: {
        ...registration,
        token: `${marker}${UNIQUE}`,
        handle: username,
        firstName: 'Fuzz',
        lastName: 'Fuzz',
      },
    },
    {
      method: 'POST',
      path: '/api/me/team',
      auth: 'user',
      body: 'json',
      base: { token: `${marker}${UNIQUE}`, handle: username },
    },
    { method: 'GET', path: '/api/brand/offers', auth: 'user', body: 'none' },
    { method: 'GET', path: '/api/brand/offers/summary', auth: 'user', body: 'none' },
    { method: 'GET', path: '/api/me/applications', auth: 'user', body: 'none' },
    ...(['withdraw', 'accept', 'decline'] as const).map((decision): FuzzRoute => ({
      method: 'POST',
      path: `/api/applications/:id/${decision}`,
      auth: 'user',
      body: 'none',
      params: { id: applicationIds },
    })),
    // Collaborations
    { method: 'GET', path: '/api/collaborations', auth: 'user', body: 'none' },
    { method: 'GET', path: '/api/collaborations/summary', auth: 'user', body: 'none' },
    {
      method: 'GET',
      path: '/api/notifications',
      auth: 'user',
      body: 'none',
      queries: ['limit=2', 'limit=50', 'cursor=1&limit=10', 'cursor=abc', 'limit=0'],
    },
    { method: 'GET', path: '/api/notifications/inbox', auth: 'user', body: 'none' },
    { method: 'GET', path: '/api/notifications/preferences', auth: 'user', body: 'none' },
    {
      method: 'PUT',
      path: '/api/notifications/preferences',
      auth: 'user',
      body: 'json',
      base: { collaborations: { in_app: true, email: false }, digest: { email: true } },
    },
    { method: 'POST', path: '/api/notifications/read-all', auth: 'user', body: 'none' },
    {
      method: 'POST',
      path: '/api/notifications/:id/read',
      auth: 'user',
      body: 'none',
      params: { id: [randomUUID(), 'not-a-notification'] },
    },
    {
      method: 'GET',
      path: '/api/unsubscribe/:token',
      auth: 'none',
      body: 'none',
      params: { token: [unsubscribeToken(randomUUID(), 'digest', 'not-the-key'), 'not-a-token'] },
    },
    {
      method: 'POST',
      path: '/api/unsubscribe/:token',
      auth: 'none',
      body: 'none',
      params: { token: [unsubscribeToken(randomUUID(), 'digest', 'not-the-key'), 'not-a-token'] },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/images',
      auth: 'user',
      body: 'multipart',
      params: { id: collaborationIds },
    },
    {
      method: 'GET',
      path: '/api/collaborations/:id/images/:imageId',
      auth: 'user',
      body: 'none',
      params: {
        id: collaborationIds,
        imageId: ['0b6a3c5e-2f4d-4e7a-9c1b-8d2e3f4a5b6c.png', 'not-an-image-id'],
      },
    },
    {
      method: 'GET',
      path: '/api/collaborations/:id',
      auth: 'user',
      body: 'none',
      params: { id: collaborationIds },
    },
    {
      method: 'GET',
      path: '/api/collaborations/:id/messages',
      auth: 'user',
      body: 'none',
      params: { id: collaborationIds },
      queries: ['', 'limit=2', 'before=1&limit=100', 'before=0', 'limit=101', 'before=x'],
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/messages',
      auth: 'user',
      body: 'json',
      base: { clientId: '6f1c2a57-9d7e-4b8a-8f11-3c2d9e0a4b5c', body: 'A fuzzed message.' },
      params: { id: collaborationIds },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/seen',
      auth: 'user',
      body: 'json',
      base: { sequence: 1 },
      params: { id: collaborationIds },
    },
    {
      method: 'PUT',
      path: '/api/collaborations/:id/deliverables',
      auth: 'user',
      body: 'json',
      base: { items: [{ title: 'One video', dueAt: offerForm.applyBy }, { title: 'Two posts' }] },
      params: { id: collaborationIds },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/deliverables/:deliverableId/submissions',
      auth: 'user',
      body: 'json',
      base: { link: 'https://video.example/fuzz', note: 'A fuzzed submission.' },
      params: { id: collaborationIds, deliverableId: deliverableIds },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/deliverables/:deliverableId/review',
      auth: 'user',
      body: 'json',
      base: { decision: 'request_changes', comment: 'A fuzzed change request.' },
      params: { id: collaborationIds, deliverableId: deliverableIds },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/payment/paid',
      auth: 'user',
      body: 'json',
      base: { reference: 'FUZZ-1' },
      params: { id: collaborationIds },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/payment/received',
      auth: 'user',
      body: 'none',
      params: { id: collaborationIds },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/cancel',
      auth: 'user',
      body: 'json',
      base: { reason: 'A fuzzed reason.' },
      params: { id: collaborationIds },
    },
    {
      method: 'POST',
      path: '/api/collaborations/:id/review',
      auth: 'user',
      body: 'json',
      base: { rating: 4, comment: 'A fuzzed review.' },
      params: { id: collaborationIds },
    },
    {
      method: 'GET',
      path: '/api/public/users/:username',
      auth: 'none',
      body: 'none',
      params: { username: [creator.registration.username, 'nosuchcreator'] },
    },
    {
      method: 'GET',
      path: '/api/public/brands/:username',
      auth: 'none',
      body: 'none',
      params: { username: [brand.registration.username, 'nosuchbrand'] },
    },
    {
      method: 'POST',
      path: '/api/reports',
      auth: 'user',
      body: 'json',
      base: { item: { kind: 'offer', id: offerIds[0] }, reason: 'spam', note: 'A fuzzed report.' },
    },
    {
      method: 'GET',
      path: '/api/reports/mine',
      auth: 'user',
      body: 'none',
      queries: ['', 'before=not-a-cursor'],
    },
    // The console's routes refuse the product's tokens (they take console tokens only).
    { method: 'GET', path: '/api/console/me', auth: 'user', body: 'none' },
    { method: 'GET', path: '/api/console/admin/me', auth: 'user', body: 'none' },
    {
      method: 'GET',
      path: '/api/console/brands',
      auth: 'user',
      body: 'none',
      queries: ['query=acme', `query=${brand.registration.username}`],
    },
    {
      method: 'GET',
      path: '/api/console/creators',
      auth: 'user',
      body: 'none',
      queries: ['query=acme', 'query=someone%40raly.test'],
    },
    {
      method: 'GET',
      path: '/api/console/audit',
      auth: 'user',
      body: 'none',
      queries: ['', 'action=report.resolve'],
    },
    {
      method: 'GET',
      path: '/api/console/reports',
      auth: 'user',
      body: 'none',
      queries: ['', 'status=resolved'],
    },
    {
      method: 'GET',
      path: '/api/console/reports/:id',
      auth: 'user',
      body: 'none',
      params: { id: [randomUUID(), 'mine'] },
    },
    {
      method: 'PUT',
      path: '/api/console/reports/:id/resolution',
      auth: 'user',
      body: 'json',
      base: { outcome: 'no-action', note: 'A fuzzed decision.' },
      params: { id: [randomUUID(), 'no-such-report'] },
    },
    {
      method: 'PUT',
      path: '/api/console/brands/:id/verification',
      auth: 'user',
      body: 'json',
      base: { isVerified: true, reason: 'A fuzzed decision.' },
      params: { id: [brand.brandId, 'no-such-brand'] },
    },
    ...(['brands', 'creators'] as const).flatMap((kind) => [
      {
        method: 'PUT' as const,
        path: `/api/console/${kind}/:id/suspension`,
        auth: 'user' as const,
        body: 'json' as const,
        base: { suspended: true, reason: 'A fuzzed decision.' },
        params: { id: [kind === 'brands' ? brand.brandId : 'no-such-creator', 'no-such-id'] },
      },
      {
        method: 'PUT' as const,
        path: `/api/console/${kind}/:id/flags`,
        auth: 'user' as const,
        body: 'json' as const,
        base: kind === 'brands' ? { isAgency: true } : { isBoosted: true },
        params: { id: [kind === 'brands' ? brand.brandId : 'no-such-creator', 'no-such-id'] },
      },
      {
        method: 'POST' as const,
        path: `/api/console/${kind}/:id/contact-view`,
        auth: 'user' as const,
        body: 'json' as const,
        base: { reason: 'A fuzzed look.' },
        params: { id: [kind === 'brands' ? brand.brandId : 'no-such-creator', 'no-such-id'] },
      },
    ]),
    { method: 'GET', path: '/health/live', auth: 'none', body: 'none' },
    { method: 'GET', path: '/health/ready', auth: 'none', body: 'none' },
    { method: 'GET', path: '/metrics', auth: 'none', body: 'none' },
  ];
});

afterAll(async () => {
  await bff?.stop();
  await system?.stop();
  if (system) await deleteFuzzUsers(system.stack, marker);
});

describeFuzz('the BFF', () => ({
  apps: recording.apps,
  options: {
    name: 'bff',
    baseUrl: bff.url,
    routes,
    credentials,
    marker,
    healthPath: '/health/live',
  },
}));
