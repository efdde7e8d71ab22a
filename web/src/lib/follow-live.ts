/**
 * How a cached query follows the live pushes of the one socket
 * (lib/live-socket) for as long as it is cached: RTK Query's
 * `onCacheEntryAdded` calls {@link followLive} with its lifecycle, and the
 * listeners merge each push with `updateCachedData` (higher version wins,
 * lib/live-updates and lib/offer-live).
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { LiveServerToClientEvents } from '@raly/contracts/live';
import { api, type ApiTag } from '@/lib/api-client';
import { liveSocket } from '@/lib/live-socket';
import { getSessionSnapshot } from '@/lib/session';

/** The part of RTK Query's `onCacheEntryAdded` lifecycle the follower uses. */
export interface CacheLifecycle {
  cacheDataLoaded: Promise<unknown>;
  cacheEntryRemoved: Promise<unknown>;
  // RTK Query types the lifecycle's state as the api's own root state.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  dispatch: ThunkDispatch<any, unknown, UnknownAction>;
}

/** Listeners by live event name (docs/api.md socket.io events). */
export type LiveListeners = Partial<LiveServerToClientEvents>;

/**
 * Listens to `listeners` from the moment the entry's first answer arrives
 * until the entry is removed. A reconnect may have missed pushes, so after
 * one the entry's `tag` is read again; the first connect needs no read, as
 * the BFF sends the current snapshots when the socket joins its rooms.
 * Resolves at once when the entry never gets data or nobody is signed in
 * (visitors have no socket).
 */
export async function followLive(
  { cacheDataLoaded, cacheEntryRemoved, dispatch }: CacheLifecycle,
  tag: ApiTag,
  listeners: LiveListeners,
): Promise<void> {
  try {
    await cacheDataLoaded;
  } catch {
    return; // the entry went away before data arrived
  }
  if (getSessionSnapshot().status !== 'signed-in') return;
  const socket = liveSocket();
  let connects = socket.connected ? 1 : 0;
  const onConnect = () => {
    connects += 1;
    if (connects > 1) dispatch(api.util.invalidateTags([tag]));
  };
  const events = Object.entries(listeners) as [keyof LiveServerToClientEvents, never][];
  socket.on('connect', onConnect);
  for (const [event, listener] of events) socket.on(event, listener);
  await cacheEntryRemoved;
  socket.off('connect', onConnect);
  for (const [event, listener] of events) socket.off(event, listener);
}
