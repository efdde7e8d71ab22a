/**
 * Fuzz of every offers service route, as of every other app: seeded,
 * bounded malformed, oversized, nested, control-character and wrong-type
 * requests with every kind of credential (see `@raly/test-support/fuzz`).
 * No 5xx, no hang, no crash, every refusal `{ error: { code, message } }`.
 * `FUZZ_SEED` repeats a run, `FUZZ_RUNS` sets the requests per route.
 */
import { beforeAll, afterAll } from 'vitest';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { callApi, testKeycloak, type TestKeycloak, uniqueToken } from '@raly/test-support';
import {
  deleteFuzzUsers,
  describeFuzz,
  type FuzzCredential,
  fuzzCredentials,
  type FuzzRoute,
  idTokenOf,
  recordExpressApps,
} from '@raly/test-support/fuzz';
import { type RalySystem, registeredBrand, startSystem } from '@raly/test-support/system';
import { anApplicationForm, anOfferForm, onboardedCreator } from './support';

const marker = `fz${uniqueToken(6)}`;
const missingId = '00000000-0000-4000-8000-000000000000';

let system: RalySystem;
let keycloak: TestKeycloak;
let recording: ReturnType<typeof recordExpressApps>;
let routes: FuzzRoute[];
let credentials: FuzzCredential[];

beforeAll(async () => {
  recording = recordExpressApps();
  try {
    system = await startSystem({ offers: true });
  } finally {
    recording.stop();
  }
  keycloak = testKeycloak(system.stack);
  const brand = await registeredBrand(system);
  const creator = await onboardedCreator(system);
  credentials = fuzzCredentials({
    users: { 'brand user': brand.accessToken, creator: creator.accessToken },
    idToken: await idTokenOf(system.stack, brand.registration.email, brand.registration.password),
  });
  const post = async <Data>(token: string, path: string, body: unknown) =>
    (await callApi<Data>(system.offersUrl, 'POST', path, { token, body })).body.data!;
  const offer = await post<OfferRecord>(
    brand.accessToken,
    '/offers',
    anOfferForm({ open: true, creatorsWanted: 100 }),
  );
  const draft = await post<OfferRecord>(brand.accessToken, '/offers', anOfferForm());
  const application = await post<ApplicationRecord>(
    creator.accessToken,
    `/offers/${offer.id}/applications`,
    anApplicationForm(),
  );
  const offerIds = [offer.id, draft.id, missingId];
  const applicationIds = [application.id, missingId];
  const offerForm = anOfferForm();
  // Every route of services/offers (docs/api.md).
  routes = [
    {
      method: 'POST',
      path: '/offers',
      auth: 'user',
      body: 'json',
      base: { ...offerForm, open: false },
    },
    {
      method: 'GET',
      path: '/offers',
      auth: 'user',
      body: 'none',
      queries: ['interest=AI&platform=x', 'q=launch&page=2&pageSize=5', 'interest=AI,Gaming'],
    },
    { method: 'GET', path: '/offers/:id', auth: 'user', body: 'none', params: { id: offerIds } },
    {
      method: 'PATCH',
      path: '/offers/:id',
      auth: 'user',
      body: 'json',
      base: { title: offerForm.title, creatorsWanted: 100 },
      params: { id: offerIds },
    },
    {
      method: 'POST',
      path: '/offers/:id/open',
      auth: 'user',
      body: 'none',
      params: { id: offerIds },
    },
    // Only the draft and unknown offers: closing the open one would end the applications' routes.
    {
      method: 'POST',
      path: '/offers/:id/close',
      auth: 'user',
      body: 'none',
      params: { id: [draft.id, missingId] },
    },
    {
      method: 'GET',
      path: '/brands/:brandId/offers',
      auth: 'user',
      body: 'none',
      params: { brandId: [brand.brandId, missingId] },
    },
    {
      method: 'GET',
      path: '/offers/:id/applications',
      auth: 'user',
      body: 'none',
      params: { id: offerIds },
    },
    {
      method: 'POST',
      path: '/offers/:id/applications',
      auth: 'user',
      body: 'json',
      base: anApplicationForm(),
      params: { id: offerIds },
    },
    { method: 'GET', path: '/applications/mine', auth: 'user', body: 'none' },
    ...(['withdraw', 'accept', 'decline'] as const).map((action): FuzzRoute => ({
      method: 'POST',
      path: `/applications/:id/${action}`,
      auth: 'user',
      body: 'none',
      params: { id: applicationIds },
    })),
    {
      method: 'GET',
      path: '/public/brands/:brandId/offers',
      auth: 'none',
      body: 'none',
      params: { brandId: [brand.brandId, missingId, 'not-a-uuid'] },
    },
    { method: 'GET', path: '/health/live', auth: 'none', body: 'none' },
    { method: 'GET', path: '/health/ready', auth: 'none', body: 'none' },
    { method: 'GET', path: '/metrics', auth: 'none', body: 'none' },
  ];
});

afterAll(async () => {
  await system?.stop();
  if (system) await deleteFuzzUsers(system.stack, marker);
  await keycloak?.cleanUp();
});

describeFuzz('the offers service', () => ({
  apps: recording.apps,
  options: {
    name: 'offers',
    baseUrl: system.offersUrl,
    routes,
    credentials,
    marker,
    healthPath: '/health/live',
  },
}));
