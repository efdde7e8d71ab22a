/**
 * The changes of a chaos run, sent open-loop at a fixed rate:
 * through the BFF behind the load balancer (`PATCH /api/me`, `PATCH
 * /api/brand`) and along paths that reach the browser only through Kafka
 * (`PATCH /users/me` straight to identity-profile's instances; a profile
 * image upload: media → `media.image.stored` → identity-profile → BFF).
 * Every answer that is 2xx counts as acknowledged, with the version it
 * answered when it carries one.
 */
import { liveEvents } from '@raly/contracts/live';
import { PNG } from '@raly/test-support/fuzz';
import { sleep } from '@raly/test-support';
import type { BenchUser } from '../users';

/** A user of the run: creators have no brand; brand members have their brand's id and profile form. */
export interface ChaosUser extends BenchUser {
  brandId?: string;
  /** The brand profile form (`PATCH /api/brand` takes it whole), from the brand's record. */
  brandForm?: Record<string, unknown>;
}

export type ChangePath = 'bff-me' | 'bff-brand' | 'service-user' | 'upload';

/** An acknowledged change. */
export interface Acknowledged {
  path: ChangePath;
  /** The record it changed, as clients key it: `<event>:<id>`. */
  key: string;
  /** The version the answer carried (uploads: none, their record changes later through Kafka). */
  version?: number;
  /** Epoch ms of the answer. */
  at: number;
}

export interface LoadResult {
  sent: number;
  acknowledged: Acknowledged[];
  /** Refused or failed changes, by path and status (`error` when no answer came). */
  failures: Record<string, number>;
  byPath: Record<ChangePath, number>;
}

export interface LoadSettings {
  /** Changes at least, sent at `changes / durationMs`. */
  changes: number;
  durationMs: number;
  /** Asked once `changes` were sent: true sends more at the same rate (up to 3 × changes). */
  continueAfter?: () => boolean;
  /** Changes in flight at most; a change due while this many are in flight waits. */
  maxInFlight: number;
  entryUrl: string;
  identityUrl: string;
}

/** 1 in this many changes is an image upload (they are the heaviest). */
const UPLOAD_EVERY = 25;

let sequence = 0;

/** The path of the `index`th change of a user, cycling through what the user may do. */
function pathOf(user: ChaosUser, index: number): ChangePath {
  if (index % UPLOAD_EVERY === 0) return 'upload';
  const cycle: ChangePath[] = user.brandId
    ? ['bff-me', 'bff-brand', 'service-user', 'bff-brand']
    : ['bff-me', 'service-user'];
  return cycle[index % cycle.length]!;
}

interface Request {
  url: string;
  init: RequestInit;
  /** The record the answer carries, from its body. */
  recordOf(body: unknown): { id: string; version: number } | undefined;
  key: (record?: { id: string }) => string;
}

function requestOf(settings: LoadSettings, user: ChaosUser, path: ChangePath): Request {
  sequence += 1;
  const headers = { authorization: `Bearer ${user.accessToken}` };
  const json = (body: object) => ({
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const phoneNumber = `+1555${String(sequence % 10_000_000).padStart(7, '0')}`;
  const userKey = () => `${liveEvents.user}:${user.userId}`;
  type Data = { data?: { user?: { id: string; version: number }; id?: string; version?: number } };
  switch (path) {
    case 'bff-me':
      return {
        url: `${settings.entryUrl}/api/me`,
        init: { method: 'PATCH', ...json({ phoneNumber }) },
        recordOf: (body) => (body as Data).data?.user,
        key: userKey,
      };
    case 'service-user':
      return {
        url: `${settings.identityUrl}/users/me`,
        init: { method: 'PATCH', ...json({ phoneNumber }) },
        recordOf: (body) => (body as Data).data as { id: string; version: number } | undefined,
        key: userKey,
      };
    case 'bff-brand':
      return {
        url: `${settings.entryUrl}/api/brand`,
        init: {
          method: 'PATCH',
          ...json({ ...user.brandForm, company: `Chaos brand ${sequence}` }),
        },
        recordOf: (body) => (body as Data).data as { id: string; version: number } | undefined,
        key: () => `${liveEvents.brand}:${user.brandId}`,
      };
    case 'upload': {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), `chaos-${sequence}.png`);
      return {
        url: `${settings.entryUrl}/api/images/user/profile`,
        init: { method: 'POST', headers, body: form },
        recordOf: () => undefined,
        key: userKey,
      };
    }
  }
}

/**
 * Sends `settings.changes` changes over `settings.durationMs`, users in turn
 * (and more at the same rate while `settings.continueAfter` says so).
 * @returns what was sent and acknowledged
 */
export async function driveChanges(
  users: ChaosUser[],
  settings: LoadSettings,
): Promise<LoadResult> {
  const result: LoadResult = {
    sent: 0,
    acknowledged: [],
    failures: {},
    byPath: { 'bff-me': 0, 'bff-brand': 0, 'service-user': 0, upload: 0 },
  };
  const intervalMs = settings.durationMs / settings.changes;
  const startedAt = Date.now();
  const inFlight = new Set<Promise<void>>();
  const fail = (reason: string) => {
    result.failures[reason] = (result.failures[reason] ?? 0) + 1;
  };
  const more = settings.continueAfter ?? (() => false);
  for (
    let index = 0;
    index < settings.changes || (index < 3 * settings.changes && more());
    index += 1
  ) {
    const due = startedAt + index * intervalMs;
    if (due > Date.now()) await sleep(due - Date.now());
    while (inFlight.size >= settings.maxInFlight) await Promise.race(inFlight);
    const user = users[index % users.length]!;
    const path = pathOf(user, Math.floor(index / users.length));
    const request = requestOf(settings, user, path);
    result.sent += 1;
    result.byPath[path] += 1;
    const change = fetch(request.url, { ...request.init, signal: AbortSignal.timeout(15_000) })
      .then(async (answer) => {
        const text = await answer.text();
        if (!answer.ok) return fail(`${path} ${answer.status}`);
        const record = request.recordOf(text ? JSON.parse(text) : undefined);
        result.acknowledged.push({
          path,
          key: request.key(record),
          ...(record ? { version: record.version } : {}),
          at: Date.now(),
        });
      })
      .catch(() => fail(`${path} error`))
      .finally(() => inFlight.delete(change));
    inFlight.add(change);
  }
  await Promise.all(inFlight);
  return result;
}
