/**
 * The callable client of spec §7–9 (docs/api.md "Callables"): POST
 * `<baseUrl>/callable/<name>` with `{ data }` and the bearer token, read with
 * the spec's rules (`readCallableResponse`). Its defaults are spec §9's:
 * a call is given up after CALLABLE_TIMEOUT_MS (70000 ms) and answers
 * 'deadline-exceeded'; the region is CALLABLE_REGION ('us-central1'), sent
 * as the header `x-raly-callable-region` (the BFF serves one region and
 * ignores it).
 *
 * No React or store here: the RTK Query endpoints (lib/callables-api.ts)
 * call it, and the unit tests drive it against a local HTTP server.
 */
import { CallableError, readCallableResponse, type CallableName } from '@raly/contracts/callable';
import { CALLABLE_REGION, CALLABLE_TIMEOUT_MS } from '@raly/contracts/constants';
import { newTraceparent, TRACEPARENT_HEADER } from '@/lib/traceparent';

/** The header that carries the client's region. */
export const CALLABLE_REGION_HEADER = 'x-raly-callable-region';

export interface CallableClientConfig {
  /** Where `/callable/<name>` lives, e.g. '/api' or 'http://127.0.0.1:4000/api'. */
  baseUrl: string;
  /** ms before a call is given up with 'deadline-exceeded'; default CALLABLE_TIMEOUT_MS. */
  timeoutMs: number;
  /** default CALLABLE_REGION. */
  region: string;
  /** The bearer token for the call, or undefined when signed out. */
  getAccessToken: () => Promise<string | undefined>;
}

export interface CallableClient {
  /** The configuration in effect (defaults applied). */
  readonly config: Readonly<CallableClientConfig>;
  /**
   * Calls one callable.
   * @param name e.g. 'checkUsernameExists'
   * @param data the callable's `data` (its request schema in @raly/contracts/callable)
   * @returns the answer's `data`
   * @throws CallableError: the code mapped from the HTTP status (spec §8),
   *   'internal' when a 2xx body lacks data or nothing answered (network),
   *   'deadline-exceeded' (httpStatus 0) after `timeoutMs`
   */
  call<T>(name: CallableName, data: unknown): Promise<T>;
}

/**
 * @param config `baseUrl` is required; `timeoutMs`, `region` and
 *   `getAccessToken` default to CALLABLE_TIMEOUT_MS, CALLABLE_REGION and no token
 */
export function createCallableClient(
  config: Pick<CallableClientConfig, 'baseUrl'> & Partial<CallableClientConfig>,
): CallableClient {
  const resolved: CallableClientConfig = {
    timeoutMs: CALLABLE_TIMEOUT_MS,
    region: CALLABLE_REGION,
    getAccessToken: async () => undefined,
    ...config,
  };
  return {
    config: resolved,
    async call<T>(name: CallableName, data: unknown): Promise<T> {
      const signal = AbortSignal.timeout(resolved.timeoutMs);
      const token = await resolved.getAccessToken();
      let response: Response;
      let body: unknown;
      try {
        response = await fetch(`${resolved.baseUrl}/callable/${name}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            [CALLABLE_REGION_HEADER]: resolved.region,
            [TRACEPARENT_HEADER]: newTraceparent(),
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ data }),
          signal,
        });
        const text = await response.text();
        body = text ? parseJson(text) : undefined;
      } catch (error) {
        if (signal.aborted) {
          throw new CallableError(
            'deadline-exceeded',
            `No answer within ${resolved.timeoutMs} ms`,
            0,
          );
        }
        throw new CallableError('internal', describe(error), 0);
      }
      return readCallableResponse<T>(response.status, body);
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // read as a body without data: 'internal'
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
