/**
 * Fuzz of every media service route: seeded, bounded uploads
 * cut short, with wrong boundaries, wrong types and odd file names, JSON
 * and other bodies where multipart is expected, malformed paths and keys,
 * with every kind of credential (see `@raly/service-kit/fuzz`). No 5xx, no
 * hang, no crash (an unhandled 'error' event fails the run), every refusal
 * `{ error: { code, message } }`. `FUZZ_SEED` repeats a run, `FUZZ_RUNS`
 * sets the requests per route.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, afterAll } from 'vitest';
import { uniqueToken } from '@raly/test-support';
import {
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

const marker = `fz${uniqueToken(6)}`;

let system: RalySystem;
let recording: ReturnType<typeof recordExpressApps>;
let routes: FuzzRoute[];
let credentials: FuzzCredential[];

beforeAll(async () => {
  recording = recordExpressApps();
  try {
    // collaborations answers media's question whether a hand-in image is the caller's.
    system = await startSystem({ media: true, collaborations: true });
  } finally {
    recording.stop();
  }
  const creator = await registeredCreator(system);
  const brand = await registeredBrand(system);
  credentials = fuzzCredentials({
    users: { creator: creator.accessToken, 'brand user': brand.accessToken },
    idToken: await idTokenOf(
      system.stack,
      creator.registration.email,
      creator.registration.password,
    ),
    // media has no internal route: a service's token, alone or misplaced, must get nowhere.
    serviceTokens: { media: await system.serviceTokens.media() },
  });
  // Every route of services/media (docs/api.md).
  routes = [
    {
      method: 'POST',
      path: '/images/:ownerType/:kind',
      auth: 'user',
      body: 'multipart',
      params: { ownerType: ['user', 'brand'], kind: ['profile', 'cover'] },
      queries: [`ownerId=${brand.brandId}`, `ownerId=${creator.userId}`],
      weight: 4,
    },
    {
      method: 'GET',
      path: '/files/*key',
      auth: 'none',
      body: 'none',
      params: {
        key: [
          `user/profile-img/${creator.userId}.svg`,
          `brand/cover-img/${brand.brandId}.png`,
          'user/profile-img/nobody.png',
        ],
      },
    },
    {
      method: 'POST',
      path: '/collaborations/:collaborationId/deliverable-images',
      auth: 'user',
      body: 'multipart',
      params: { collaborationId: [randomUUID(), 'not-a-collaboration'] },
    },
    {
      method: 'GET',
      path: '/collaborations/:collaborationId/deliverable-images/:imageId',
      auth: 'user',
      body: 'none',
      params: {
        collaborationId: [randomUUID(), 'not-a-collaboration'],
        imageId: [`${randomUUID()}.png`, 'not-an-image-id'],
      },
    },
    { method: 'GET', path: '/health/live', auth: 'none', body: 'none' },
    { method: 'GET', path: '/health/ready', auth: 'none', body: 'none' },
    { method: 'GET', path: '/metrics', auth: 'none', body: 'none' },
  ];
});

afterAll(async () => {
  await system?.stop();
});

describeFuzz('the media service', () => ({
  apps: recording.apps,
  options: {
    name: 'media',
    baseUrl: system.mediaUrl,
    routes,
    credentials,
    marker,
    healthPath: '/health/live',
  },
}));
