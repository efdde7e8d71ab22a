/** The BFF's socket.io server and socket types: server-to-client events only, no client events. */
import type { Server, Socket } from 'socket.io';
import type { LiveServerToClientEvents } from '@raly/contracts/live';
import type { Caller } from '@raly/service-kit/auth';

/** What the BFF keeps on a socket. */
export interface SocketData {
  caller: Caller;
  /** The rooms to join on connection; emptied once joined (memory per idle socket). */
  rooms: string[];
  /** The user's brand, when they are a brand user. */
  brandId?: string;
}

type NoEvents = Record<string, never>;
export type LiveIo = Server<NoEvents, LiveServerToClientEvents, NoEvents, SocketData>;
export type LiveSocket = Socket<NoEvents, LiveServerToClientEvents, NoEvents, SocketData>;
