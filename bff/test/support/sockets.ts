/** socket.io clients of the BFF's `/live` endpoint, recording what they receive. */
import { io, type Socket } from 'socket.io-client';
import type { RunningBff } from '../../src/app';

export interface RecordingSocket {
  socket: Socket;
  /** Every `[event, payload]` received so far. */
  received: Array<[string, any]>;
}

/**
 * Connects with `auth.token`.
 * @returns the connected socket, or rejects with the server's connect_error
 */
export function connectLive(bff: RunningBff, token: string | undefined): Promise<RecordingSocket> {
  const socket = io(bff.url, {
    path: '/live',
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const received: Array<[string, any]> = [];
  socket.onAny((event: string, payload: unknown) => received.push([event, payload]));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, received }));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}
