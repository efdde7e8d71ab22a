/**
 * The BFF as the console's component tests see it: the console's fetches (a URL and init, not a
 * Request) answered by the test, its live report queue (the socket's namespace `/console`) driven
 * by the test, and a signed-in staff member's session.
 */
import { vi } from 'vitest';
import type { ConsoleCreator } from '@raly/contracts/internal';
import { uniqueToken } from '@raly/test-support/records';
import type { ReportRecord } from '@raly/contracts/reports';
import type {
  ConsoleLiveAddress,
  ReportFeedListener,
} from '@/features/console/services/console-live';
import type { ConsoleSession, StaffRole } from '@/features/console/services/console-session';

/** Where the console's socket would answer in these tests (they drive its pushes themselves). */
export const testLiveAddress: ConsoleLiveAddress = { origin: '', path: '/live' };

/** A call of the console to the BFF: method, path and JSON body. */
export interface ConsoleCall {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Answers the console's fetches (a URL and init, not a Request) with `answer(call)` (a promise
 * that has not settled keeps the call pending).
 * @returns the calls made so far
 */
export function answerConsole(
  answer: (call: ConsoleCall) => Response | Promise<Response>,
): ConsoleCall[] {
  const calls: ConsoleCall[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const address = new URL(String(input), window.location.href);
    const call: ConsoleCall = {
      method: init?.method ?? 'GET',
      path: `${address.pathname}${address.search}`,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return answer(call);
  });
  return calls;
}

/** A signed-in staff member's session in this tab, with `role`. */
export const aSession = (role: StaffRole): ConsoleSession => ({
  email: 'staff@raly.test',
  roles: role === 'raly-admin' ? ['raly-moderator', 'raly-admin'] : ['raly-moderator'],
  accessToken: () => Promise.resolve('console-token'),
  signOut: () => Promise.resolve(),
});

/** A creator as the console's lookup answers them (public profile and flags, no contact). */
export const aConsoleCreator = (): ConsoleCreator => ({
  id: `creator-${uniqueToken()}`,
  username: `c${uniqueToken(10)}`,
  profileImg: '',
  coverImg: '',
  interests: [],
  socials: { x: '', instagram: '', threads: '' },
  permissions: {
    isInfluencer: false,
    isBoosted: false,
    isVerified: false,
    isSuspended: false,
    isAmbassador: false,
  },
});

/** The BFF's console socket as a test drives it (`ConsoleApi.watchReports`). */
export interface ReportFeed {
  /** `ConsoleApi.watchReports`: listens until the returned function is called. */
  watch(listener: ReportFeedListener): () => void;
  /** The socket connects (true) or goes down (false), for every watcher. */
  connection(connected: boolean): void;
  /** The BFF pushes `report.updated` with `report` to every watcher. */
  push(report: ReportRecord): void;
  /** How many watchers listen now. */
  watchers(): number;
}

/** A console socket that stays down until the test connects it. */
export function aReportFeed(): ReportFeed {
  const listeners = new Set<ReportFeedListener>();
  return {
    watch(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    connection: (connected) => listeners.forEach((listener) => listener.connection(connected)),
    push: (report) => listeners.forEach((listener) => listener.report(report)),
    watchers: () => listeners.size,
  };
}
