/**
 * One fake socket for the live pushes of component tests: a test mocks
 * `@/lib/live-socket` with it (`vi.mock('@/lib/live-socket', () =>
 * import('./fake-live').then(({ live }) => ({ liveSocket: () => live.socket })))`),
 * waits until the page listens (`live.listeners`) and pushes with
 * `live.push(event, payload)` as the BFF would.
 */
type Listener = (payload: unknown) => void;

const listeners = new Map<string, Set<Listener>>();

export const live = {
  /** The listeners by event name. */
  listeners,
  socket: {
    connected: true,
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
    },
    off(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
    },
  },
  /** Calls every listener of `event` with `payload`. */
  push(event: string, payload: unknown) {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  },
};
