/**
 * The one socket.io connection of the tab to the BFF's live updates
 * (docs/api.md, path /live). It authenticates with the current access token
 * in the handshake, reconnects with the fresh token after every refresh, and
 * closes on sign-out. The server decides the rooms; we only listen.
 */
import { io, type Socket } from 'socket.io-client';
import type { LiveServerToClientEvents } from '@raly/contracts/live';
import { env } from '@/config/env';
import { getAccessToken, onAccessTokenChanged } from '@/lib/session';

/** The socket of the BFF's live updates: it only listens. */
export type LiveSocket = Socket<LiveServerToClientEvents, Record<string, never>>;

let socket: LiveSocket | null = null;
let lastToken: string | null = null;

function createSocket(): LiveSocket {
  const options = {
    path: env.livePath,
    autoConnect: false,
    // Called on every (re)connect, so a reconnect always carries a fresh token.
    auth: (callback: (data: { token?: string }) => void) => {
      void getAccessToken().then((token) => callback({ token }));
    },
  };
  // This origin unless the runtime configuration names the BFF's own (config/env).
  const created: LiveSocket = env.bffUrl ? io(env.bffUrl, options) : io(options);
  onAccessTokenChanged((token) => {
    if (token === null) {
      lastToken = null;
      created.disconnect();
      return;
    }
    if (token === lastToken) return;
    lastToken = token;
    if (created.active) created.disconnect().connect();
  });
  return created;
}

/**
 * @returns the shared, connecting (or connected) socket; call only while signed in
 */
export function liveSocket(): LiveSocket {
  socket ??= createSocket();
  if (!socket.active) socket.connect();
  return socket;
}
