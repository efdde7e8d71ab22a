/**
 * Fuzz of every notifications service route: seeded, bounded requests with
 * malformed cursors, limits and ids, odd bodies and every kind of credential
 * (see `@raly/test-support/fuzz`). No 5xx, no hang, no crash, every refusal
 * `{ error: { code, message } }`. `FUZZ_SEED` repeats a run, `FUZZ_RUNS`
 * sets the requests per route.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, afterAll } from 'vitest';
import { uniqueToken } from '@raly/test-support';
import { unsubscribeToken } from '../src/domain/unsubscribe';
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
    system = await startSystem({ notifications: true });
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
  });
  // Every route of services/notifications (docs/api.md).
  routes = [
    {
      method: 'GET',
      path: '/notifications',
      auth: 'user',
      body: 'none',
      queries: ['limit=2', 'limit=50', 'cursor=1&limit=10', 'cursor=abc', 'limit=0'],
    },
    { method: 'GET', path: '/notifications/inbox', auth: 'user', body: 'none' },
    { method: 'POST', path: '/notifications/read-all', auth: 'user', body: 'none' },
    {
      method: 'POST',
      path: '/notifications/:id/read',
      auth: 'user',
      body: 'none',
      params: { id: [randomUUID(), 'not-a-notification'] },
    },
    { method: 'GET', path: '/preferences', auth: 'user', body: 'none' },
    {
      method: 'PUT',
      path: '/preferences',
      auth: 'user',
      body: 'json',
      base: { offers: { in_app: false, email: true }, digest: { email: true } },
    },
    {
      method: 'POST',
      path: '/unsubscribe/:token',
      auth: 'none',
      body: 'none',
      params: { token: [unsubscribeToken(randomUUID(), 'digest', 'not-the-key'), 'not-a-token'] },
    },
    { method: 'GET', path: '/health/live', auth: 'none', body: 'none' },
    { method: 'GET', path: '/health/ready', auth: 'none', body: 'none' },
    { method: 'GET', path: '/metrics', auth: 'none', body: 'none' },
  ];
});

afterAll(async () => {
  await system?.stop();
});

describeFuzz('the notifications service', () => ({
  apps: recording.apps,
  options: {
    name: 'notifications',
    baseUrl: system.notificationsUrl,
    routes,
    credentials,
    marker,
    healthPath: '/health/live',
  },
}));
