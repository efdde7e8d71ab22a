/**
 * Fuzz of every collaborations service route, as of every other app: seeded,
 * bounded malformed, oversized, nested, control-character and wrong-type
 * requests with every kind of credential (see `@raly/test-support/fuzz`).
 * No 5xx, no hang, no crash, every refusal `{ error: { code, message } }`.
 * `FUZZ_SEED` repeats a run, `FUZZ_RUNS` sets the requests per route.
 */
import { beforeAll, afterAll } from 'vitest';
import { dataOf, testKeycloak, type TestKeycloak, uniqueToken } from '@raly/test-support';
import {
  deleteFuzzUsers,
  describeFuzz,
  type FuzzCredential,
  fuzzCredentials,
  type FuzzRoute,
  idTokenOf,
  recordExpressApps,
} from '@raly/test-support/fuzz';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';
import { aMessage, openedCollaboration } from './support';

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
    system = await startSystem({ collaborations: true });
  } finally {
    recording.stop();
  }
  keycloak = testKeycloak(system.stack);
  const [brand, creator] = await Promise.all([registeredBrand(system), registeredCreator(system)]);
  credentials = fuzzCredentials({
    users: { 'brand user': brand.accessToken, creator: creator.accessToken },
    idToken: await idTokenOf(system.stack, brand.registration.email, brand.registration.password),
  });
  const collaboration = await openedCollaboration(system, { creator, brand });
  const message = await dataOf<{ id: string }>(
    system.collaborationsUrl,
    'POST',
    `/collaborations/${collaboration.id}/messages`,
    { token: creator.accessToken, body: aMessage() },
  );
  const ids = { id: [collaboration.id, missingId] };
  const deliverableIds = {
    ...ids,
    deliverableId: [collaboration.deliverables[0]!.id, missingId],
  };
  const work = (path: string, base: unknown, params = ids): FuzzRoute => ({
    method: 'POST',
    path: `/collaborations/:id${path}`,
    auth: 'user',
    body: 'json',
    base,
    params,
  });
  // Every route of services/collaborations (docs/api.md).
  routes = [
    { method: 'GET', path: '/collaborations', auth: 'user', body: 'none' },
    { method: 'GET', path: '/collaborations/:id', auth: 'user', body: 'none', params: ids },
    {
      method: 'GET',
      path: '/collaborations/:id/messages',
      auth: 'user',
      body: 'none',
      params: ids,
      queries: ['limit=5', 'before=3&limit=2', 'before=1'],
    },
    {
      method: 'POST',
      path: '/collaborations/:id/messages',
      auth: 'user',
      body: 'json',
      base: { ...aMessage(), confirmContactDetails: false },
      params: ids,
      weight: 2,
    },
    {
      method: 'GET',
      path: '/collaborations/messages/:messageId',
      auth: 'user',
      body: 'none',
      params: { messageId: [message.id, missingId, 'not-a-message-id'] },
    },
    {
      method: 'POST',
      path: '/collaborations/:id/seen',
      auth: 'user',
      body: 'json',
      base: { sequence: 1 },
      params: ids,
    },
    {
      method: 'PUT',
      path: '/collaborations/:id/deliverables',
      auth: 'user',
      body: 'json',
      base: { items: [{ title: 'Launch video', dueAt: '2031-05-01T12:00:00Z' }] },
      params: ids,
    },
    work(
      '/deliverables/:deliverableId/submissions',
      { link: 'https://videos.example.com/cut-1', note: 'First cut' },
      deliverableIds,
    ),
    work(
      '/deliverables/:deliverableId/review',
      { decision: 'request_changes', comment: 'Brighter, please' },
      deliverableIds,
    ),
    work('/payment/paid', { reference: 'INV-17' }),
    work('/payment/received', {}),
    work('/cancel', { reason: 'Plans changed' }),
    {
      method: 'GET',
      path: '/collaborations/:id/images/:imageId',
      auth: 'user',
      body: 'none',
      params: {
        ...ids,
        imageId: ['0b6a3c5e-2f4d-4e7a-9c1b-8d2e3f4a5b6c.png', 'not-an-image-id'],
      },
    },
    work('/review', { rating: 4, comment: 'Clear brief' }),
    {
      method: 'GET',
      path: '/public/brands/:brandId/track-record',
      auth: 'none',
      body: 'none',
      params: { brandId: [brand.brandId, missingId] },
    },
    {
      method: 'GET',
      path: '/public/creators/:creatorId/track-record',
      auth: 'none',
      body: 'none',
      params: { creatorId: [creator.userId, missingId] },
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

describeFuzz('the collaborations service', () => ({
  apps: recording.apps,
  options: {
    name: 'collaborations',
    baseUrl: system.collaborationsUrl,
    routes,
    credentials,
    marker,
    healthPath: '/health/live',
  },
}));
