/**
 * socket.io clients of the BFF's `/live` endpoint, the product's namespace and the staff
 * console's, recording what they receive.
 */
import { io, type Socket } from 'socket.io-client';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import { CONSOLE_LIVE_NAMESPACE, consoleLiveEvents } from '@raly/contracts/console-live';
import { LIVE_PATH, liveEvents } from '@raly/contracts/live';
import type { InboxRecord } from '@raly/contracts/notifications';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import type { ReportRecord } from '@raly/contracts/reports';
import type { RunningBff } from '../../src/app';

/** What the BFF pushes on `/live` (docs/api.md): the changed record, by event name. */
export type LivePush =
  | [typeof liveEvents.user, UserRecord]
  | [typeof liveEvents.brand, BrandRecord]
  | [typeof liveEvents.offer, OfferRecord]
  | [typeof liveEvents.application, ApplicationRecord]
  | [typeof liveEvents.collaboration, CollaborationRecord]
  | [typeof liveEvents.message, CollaborationMessageRecord]
  | [typeof liveEvents.inbox, InboxRecord];

export interface RecordingSocket {
  socket: Socket;
  /** Every `[event, payload]` received so far. */
  received: LivePush[];
}

/**
 * Connects with `auth.token`, over a WebSocket from the start unless
 * `transports` says otherwise (the web app's `['polling', 'websocket']`:
 * long-polling first, then an upgrade).
 * @returns the connected socket, or rejects with the server's connect_error
 */
export function connectLive(
  bff: RunningBff,
  token: string | undefined,
  transports: Array<'polling' | 'websocket'> = ['websocket'],
): Promise<RecordingSocket> {
  const socket = io(bff.url, {
    path: LIVE_PATH,
    auth: token === undefined ? {} : { token },
    transports,
    reconnection: false,
    forceNew: true,
  });
  const received: LivePush[] = [];
  // The server emits only the events of LivePush (live/pushers.ts).
  socket.onAny((event: string, payload: unknown) => received.push([event, payload] as LivePush));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, received }));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** The payload of each live event. */
interface PayloadByEvent {
  [liveEvents.user]: UserRecord;
  [liveEvents.brand]: BrandRecord;
  [liveEvents.offer]: OfferRecord;
  [liveEvents.application]: ApplicationRecord;
  [liveEvents.collaboration]: CollaborationRecord;
  [liveEvents.message]: CollaborationMessageRecord;
  [liveEvents.inbox]: InboxRecord;
}

/** The payloads of one event name a socket received, in order. */
export function receivedOf<E extends keyof PayloadByEvent>(
  recording: RecordingSocket,
  event: E,
): PayloadByEvent[E][] {
  return recording.received
    .filter(([name]) => name === event)
    .map(([, payload]) => payload as PayloadByEvent[E]);
}

/**
 * Resolves with the socket's disconnect reason (at once when it is not connected), or rejects
 * after `boundMs`.
 */
export function disconnectedWithin(socket: Socket, boundMs: number): Promise<string> {
  if (!socket.connected) return Promise.resolve('already disconnected');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`socket still connected after ${boundMs} ms`)),
      boundMs,
    );
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/** A socket of the staff console's namespace (`/console`) and the reports it received. */
export interface ConsoleRecordingSocket {
  socket: Socket;
  /** Every report pushed so far (`report.updated`), in order. */
  reports: ReportRecord[];
  /** Every event name received so far. */
  events: string[];
}

/**
 * Connects to the console's namespace with `auth.token` over a WebSocket.
 * @returns the connected socket, or rejects with the server's connect_error
 */
export function connectConsoleLive(
  bff: RunningBff,
  token: string | undefined,
): Promise<ConsoleRecordingSocket> {
  const socket = io(`${bff.url}${CONSOLE_LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const recording: ConsoleRecordingSocket = { socket, reports: [], events: [] };
  socket.onAny((event: string, payload: unknown) => {
    recording.events.push(event);
    if (event === consoleLiveEvents.report) recording.reports.push(payload as ReportRecord);
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(recording));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}
