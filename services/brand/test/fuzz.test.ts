/**
 * Fuzz of every brand service route: seeded, bounded malformed,
 * oversized, nested, control-character and wrong-type requests with every
 * kind of credential (see `@raly/service-kit/fuzz`). No 5xx, no hang, no
 * crash, every refusal `{ error: { code, message } }`. `FUZZ_SEED` repeats a
 * run, `FUZZ_RUNS` sets the requests per route.
 */
import { beforeAll, afterAll } from 'vitest';
import { uniqueToken } from '@raly/test-support';
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
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

const marker = `fz${uniqueToken(6)}`;
/** A brand id no brand has (the one real brand must survive DELETE). */
const missingBrandId = '00000000-0000-4000-8000-000000000000';

let system: RalySystem;
let recording: ReturnType<typeof recordExpressApps>;
let routes: FuzzRoute[];
let credentials: FuzzCredential[];

beforeAll(async () => {
  recording = recordExpressApps();
  try {
    system = await startSystem();
  } finally {
    recording.stop();
  }
  const brand = await registeredBrand(system);
  const creator = await registeredCreator(system);
  credentials = fuzzCredentials({
    users: { 'brand user': brand.accessToken, creator: creator.accessToken },
    idToken: await idTokenOf(system.stack, brand.registration.email, brand.registration.password),
    serviceTokens: {
      identity: await system.serviceTokens.identity(),
      media: await system.serviceTokens.media(),
      bff: await system.serviceTokens.bff(),
    },
  });
  const brandForm = {
    username: `${marker}${UNIQUE}`,
    company: 'Fuzz Company',
    websiteUrl: 'https://fuzz.example',
    bio: 'A brand made by the fuzz test, with a bio long enough to pass.',
    socials: { x: 'fuzz', instagram: 'fuzz', threads: 'fuzz', discord: 'fuzz' },
  };
  // Every route of services/brand (docs/api.md).
  routes = [
    {
      method: 'POST',
      path: '/brands',
      auth: 'service',
      callers: ['identity'],
      body: 'json',
      base: {
        creatorUserId: `${marker}-${UNIQUE}`,
        username: `${marker}${UNIQUE}`,
        company: 'Fuzz Company',
        websiteUrl: 'https://fuzz.example',
      },
    },
    {
      method: 'DELETE',
      path: '/brands/:id',
      auth: 'service',
      callers: ['identity'],
      body: 'none',
      params: { id: [missingBrandId] },
    },
    {
      method: 'GET',
      path: '/brands/:id/members/:userId',
      auth: 'service',
      callers: ['media', 'identity'],
      body: 'none',
      params: { id: [brand.brandId, missingBrandId], userId: [brand.userId, creator.userId] },
    },
    {
      method: 'GET',
      path: '/brands',
      auth: 'service',
      callers: ['bff'],
      body: 'none',
      queries: ['query=acme', `query=${brand.brandId.slice(0, 4)}`, 'query=%25_'],
    },
    {
      method: 'GET',
      path: '/brands/:id/record',
      auth: 'service',
      callers: ['bff'],
      body: 'none',
      params: { id: [brand.brandId, missingBrandId] },
    },
    {
      method: 'PUT',
      path: '/brands/:id/verification',
      auth: 'service',
      callers: ['bff'],
      body: 'json',
      base: {
        isVerified: true,
        reason: 'fuzz',
        staff: { userId: 'staff', email: 'staff@raly.test' },
      },
      params: { id: [brand.brandId, missingBrandId] },
    },
    {
      method: 'PUT',
      path: '/brands/:id/suspension',
      auth: 'service',
      callers: ['bff'],
      body: 'json',
      base: {
        suspended: false,
        reason: 'fuzz',
        staff: { userId: 'staff', email: 'staff@raly.test' },
      },
      params: { id: [missingBrandId] },
    },
    {
      method: 'PUT',
      path: '/brands/:id/flags',
      auth: 'service',
      callers: ['bff'],
      body: 'json',
      base: { isAgency: false, staff: { userId: 'staff', email: 'staff@raly.test' } },
      params: { id: [brand.brandId, missingBrandId] },
    },
    {
      method: 'GET',
      path: '/brands/:id',
      auth: 'user',
      body: 'none',
      params: { id: [brand.brandId, missingBrandId] },
    },
    {
      method: 'PATCH',
      path: '/brands/:id',
      auth: 'user',
      body: 'json',
      base: brandForm,
      params: { id: [brand.brandId] },
    },
    {
      method: 'POST',
      path: '/invitations/preview',
      auth: 'service',
      callers: ['identity'],
      body: 'json',
      base: { token: `${marker}${UNIQUE}` },
    },
    {
      method: 'POST',
      path: '/invitations/accept',
      auth: 'service',
      callers: ['identity'],
      body: 'json',
      base: {
        token: `${marker}${UNIQUE}`,
        userId: `${marker}-${UNIQUE}`,
        email: `${marker}${UNIQUE}@raly.test`,
        handle: `${marker}${UNIQUE}`,
      },
    },
    {
      method: 'GET',
      path: '/brands/:id/team',
      auth: 'user',
      body: 'none',
      params: { id: [brand.brandId, missingBrandId] },
    },
    {
      method: 'GET',
      path: '/brands/:id/invitations',
      auth: 'user',
      body: 'none',
      params: { id: [brand.brandId, missingBrandId] },
    },
    {
      method: 'POST',
      path: '/brands/:id/invitations',
      auth: 'user',
      body: 'json',
      // A made-up brand: a real one would mail every fuzzed address and spend its limit.
      base: { email: `${marker}${UNIQUE}@raly.test` },
      params: { id: [missingBrandId] },
    },
    {
      method: 'DELETE',
      path: '/brands/:id/invitations/:invitationId',
      auth: 'user',
      body: 'none',
      params: { id: [brand.brandId], invitationId: [missingBrandId, 'x'] },
    },
    {
      method: 'PUT',
      path: '/brands/:id/members/me/handle',
      auth: 'user',
      body: 'json',
      base: { handle: `${marker}${UNIQUE}` },
      params: { id: [missingBrandId] },
    },
    {
      method: 'PATCH',
      path: '/brands/:id/members/:userId',
      auth: 'user',
      body: 'json',
      base: { isAdmin: true },
      params: { id: [brand.brandId], userId: [creator.userId] },
    },
    {
      method: 'DELETE',
      path: '/brands/:id/members/:userId',
      auth: 'user',
      body: 'none',
      params: { id: [brand.brandId], userId: [creator.userId] },
    },
    {
      method: 'GET',
      path: '/public/brands/:username',
      auth: 'none',
      body: 'none',
      params: { username: [brand.registration.username, 'nosuchbrand'] },
    },
    { method: 'GET', path: '/health/live', auth: 'none', body: 'none' },
    { method: 'GET', path: '/health/ready', auth: 'none', body: 'none' },
    { method: 'GET', path: '/metrics', auth: 'none', body: 'none' },
  ];
});

afterAll(async () => {
  await system?.stop();
  if (system) await deleteFuzzUsers(system.stack, marker);
});

describeFuzz('the brand service', () => ({
  apps: recording.apps,
  options: {
    name: 'brand',
    baseUrl: system.brandUrl,
    routes,
    credentials,
    marker,
    healthPath: '/health/live',
  },
}));
