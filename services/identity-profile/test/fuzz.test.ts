/**
 * Fuzz of every identity-profile route: seeded, bounded
 * malformed, oversized, nested, control-character and wrong-type requests
 * with every kind of credential (see `@raly/service-kit/fuzz`). No 5xx, no
 * hang, no crash, every refusal `{ error: { code, message } }`.
 * `FUZZ_SEED` repeats a run, `FUZZ_RUNS` sets the requests per route.
 */
import { beforeAll, afterAll } from 'vitest';
import { INTERESTS } from '@raly/contracts/constants';
import {
  registeredBrandUser,
  registeredCreator,
  useIdentityService,
  type Harness,
} from './support';
import { freePort, serviceTokenOf, testStack, uniqueToken } from '@raly/test-support';
import { type RunningService, startService } from '@raly/test-support/system';
import {
  deleteFuzzUsers,
  describeFuzz,
  type FuzzCredential,
  fuzzCredentials,
  type FuzzRoute,
  idTokenOf,
  recordExpressApps,
  UNIQUE,
} from '@raly/test-support/fuzz';

const marker = `fz${uniqueToken(6)}`;

/**
 * Every route of identity-profile (docs/api.md). The account, password-reset
 * and query routes are only for the BFF, the username registry only for
 * brand: each takes that caller's service token.
 */
const routes: FuzzRoute[] = [
  {
    method: 'POST',
    path: '/accounts',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: {
      isBrand: false,
      registration: {
        username: `${marker}${UNIQUE}`,
        email: `${marker}${UNIQUE}@raly.test`,
        password: 'pw-fuzz-1',
        confirmPassword: 'pw-fuzz-1',
        agreeTerms: true,
      },
    },
  },
  { method: 'GET', path: '/users/me', auth: 'user', body: 'none' },
  { method: 'GET', path: '/users/me/handle', auth: 'user', body: 'none' },
  {
    method: 'PATCH',
    path: '/users/me',
    auth: 'user',
    body: 'json',
    base: {
      username: `${marker}${UNIQUE}`,
      email: `${marker}${UNIQUE}@raly.test`,
      phoneNumber: '+15555550100',
      interests: [INTERESTS[0]],
      notifications: { offers: true, marketing: false },
      firstName: 'Fuzz',
      lastName: 'Fuzz',
    },
  },
  {
    method: 'PATCH',
    path: '/users/me/onboarding',
    auth: 'user',
    body: 'json',
    base: { step: 'terms', value: true },
  },
  {
    method: 'PUT',
    path: '/users/me/interests',
    auth: 'user',
    body: 'json',
    base: { interests: [INTERESTS[0], INTERESTS[1]] },
  },
  {
    method: 'POST',
    path: '/users/me/team',
    auth: 'user',
    body: 'json',
    base: { token: `${marker}${UNIQUE}`, handle: `${marker}${UNIQUE}` },
  },
  {
    method: 'POST',
    path: '/accounts/members',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: {
      token: `${marker}${UNIQUE}`,
      handle: `${marker}${UNIQUE}`,
      email: `${marker}${UNIQUE}@raly.test`,
      password: 'pw-fuzz-1',
      confirmPassword: 'pw-fuzz-1',
      firstName: 'Fuzz',
      lastName: 'Fuzz',
      agreeTerms: true,
    },
  },
  {
    method: 'POST',
    path: '/queries/invitation-preview',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { token: `${marker}${UNIQUE}` },
  },
  {
    method: 'POST',
    path: '/brand-memberships/sync',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { userId: `${marker}${UNIQUE}`, brandId: '00000000-0000-4000-8000-000000000000' },
  },
  { method: 'POST', path: '/users/me/login-recorded', auth: 'user', body: 'none' },
  {
    method: 'POST',
    path: '/password-resets',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { email: `${marker}${UNIQUE}@raly.test` },
  },
  {
    method: 'POST',
    path: '/password-resets/confirm',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { actionCode: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', password: 'pw-fuzz-2' },
  },
  {
    method: 'POST',
    path: '/queries/check-email-exists',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { email: `${marker}${UNIQUE}@raly.test` },
  },
  {
    method: 'POST',
    path: '/queries/check-username-exists',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { username: `${marker}${UNIQUE}` },
  },
  {
    method: 'POST',
    path: '/usernames/claim',
    auth: 'service',
    callers: ['brand'],
    body: 'json',
    base: { username: `${marker}${UNIQUE}`, ownerType: 'brand', ownerId: `brand-${UNIQUE}` },
  },
  {
    method: 'POST',
    path: '/usernames/release',
    auth: 'service',
    callers: ['brand'],
    body: 'json',
    base: { username: `${marker}${UNIQUE}`, ownerType: 'brand', ownerId: `brand-${UNIQUE}` },
  },
  {
    method: 'GET',
    path: '/contacts/:userId',
    auth: 'service',
    callers: ['notifications'],
    body: 'none',
    params: { userId: [`${marker}${UNIQUE}`, 'nosuchuser'] },
  },
  {
    method: 'GET',
    path: '/creators',
    auth: 'service',
    callers: ['bff'],
    body: 'none',
    queries: ['query=fuzz', `query=${marker}`, 'query=%25_%5C', 'query=someone%40raly.test'],
  },
  {
    method: 'PUT',
    path: '/users/:id/suspension',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: {
      suspended: false,
      reason: 'fuzz',
      staff: { userId: 'staff', email: 'staff@raly.test' },
    },
    params: { id: ['nosuchuser'] },
  },
  {
    method: 'PUT',
    path: '/users/:id/flags',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { isBoosted: false, staff: { userId: 'staff', email: 'staff@raly.test' } },
    params: { id: ['nosuchuser'] },
  },
  {
    method: 'POST',
    path: '/users/:id/contact-view',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { reason: 'fuzz check', staff: { userId: 'staff', email: 'staff@raly.test' } },
    params: { id: ['nosuchuser'] },
  },
  {
    method: 'POST',
    path: '/brands/:brandId/contact-view',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: {
      reason: 'fuzz check',
      company: 'Fuzz Inc',
      staff: { userId: 'staff', email: 'staff@raly.test' },
    },
    params: { brandId: ['nosuchbrand'] },
  },
  {
    method: 'POST',
    path: '/sessions/end',
    auth: 'service',
    callers: ['bff'],
    body: 'json',
    base: { userIds: ['nosuchuser'] },
  },
  {
    method: 'GET',
    path: '/public/users/:username',
    auth: 'none',
    body: 'none',
    params: { username: [`${marker}${UNIQUE}`, 'nosuchcreator'] },
  },
  { method: 'GET', path: '/health/live', auth: 'none', body: 'none' },
  { method: 'GET', path: '/health/ready', auth: 'none', body: 'none' },
  { method: 'GET', path: '/metrics', auth: 'none', body: 'none' },
];

let recording: ReturnType<typeof recordExpressApps>;
let harness: Harness;
let credentials: FuzzCredential[];

describeFuzz(
  'identity-profile',
  () => ({
    apps: recording.apps,
    options: {
      name: 'identity-profile',
      baseUrl: harness.baseUrl,
      routes,
      credentials,
      marker,
      healthPath: '/health/live',
    },
  }),
  () => {
    // Registered before the service starts (hooks run in order), to see its express app.
    beforeAll(() => {
      recording = recordExpressApps();
    });
    // services/brand too: the team routes ask it (invitations, memberships).
    const ports = { identity: 0, brand: 0 };
    let brand: RunningService | undefined;
    beforeAll(async () => {
      ports.identity = await freePort();
      ports.brand = await freePort();
      brand = await startService('brand', {
        stack: await testStack(),
        port: ports.brand,
        env: { IDENTITY_URL: `http://127.0.0.1:${ports.identity}` },
      });
    });
    afterAll(async () => {
      await brand?.stop();
    });
    harness = useIdentityService(() => ({
      port: ports.identity,
      env: { BRAND_URL: `http://127.0.0.1:${ports.brand}` },
    }));
    beforeAll(async () => {
      recording.stop();
      const creator = await registeredCreator(harness);
      const brandUser = await registeredBrandUser(harness);
      credentials = fuzzCredentials({
        users: { creator: creator.accessToken, 'brand user': brandUser.accessToken },
        idToken: await idTokenOf(
          harness.stack,
          creator.registration.email,
          creator.registration.password,
        ),
        serviceTokens: {
          bff: await serviceTokenOf(harness.stack, 'bff')(),
          brand: await serviceTokenOf(harness.stack, 'brand')(),
          media: await serviceTokenOf(harness.stack, 'media')(),
          notifications: await serviceTokenOf(harness.stack, 'notifications')(),
        },
      });
    });
    afterAll(async () => {
      await deleteFuzzUsers(harness.stack, marker);
    });
  },
);
