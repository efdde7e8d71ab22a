/** The fuzz's vocabulary: routes, credentials, drawn cases, failures, reports, and its seed and run count. */

/** Who may call a route: anyone, a user's access token, optionally a user, the internal service token. */
export type FuzzAuth = 'none' | 'user' | 'optional-user' | 'service';

/** One route of an app, as the fuzz sees it. */
export interface FuzzRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as registered with express, e.g. `/brands/:id` or `/files/*key`. */
  path: string;
  auth: FuzzAuth;
  /** For `auth: 'service'`: the calling services the route allows (e.g. `['bff']`); default any. */
  callers?: readonly string[];
  /** What the route reads: a JSON body, a callable `{ data }` body, a multipart upload, or nothing. */
  body: 'json' | 'callable' | 'multipart' | 'none';
  /**
   * A plausible body the mutations start from (JSON routes); its leaves are
   * replaced by wrong values one to three at a time.
   */
  base?: unknown;
  /** Well-formed values of the path parameters (by name), mixed with malformed ones. */
  params?: Record<string, string[]>;
  /** Well-formed query strings (without `?`), mixed with malformed ones. */
  queries?: string[];
  /** Callables answer errors with `error.status` too. */
  callable?: boolean;
  /** Draws `weight` × the runs per route here (routes with many ways to fail); default 1. */
  weight?: number;
}

/** Headers a request carries to prove who it is, and what they prove. */
export interface FuzzCredential {
  label: string;
  headers: Record<string, string>;
  /** Carries a valid user access token. */
  user?: boolean;
  /** Carries a valid access token of this calling service (e.g. `bff`) as the service token. */
  service?: string;
}

/** One drawn request. */
export interface FuzzCase {
  route: FuzzRoute;
  credential: FuzzCredential;
  path: string;
  payload: FuzzPayload;
}

/** A request body with its headers and a short description of what is odd about it. */
export interface FuzzPayload {
  /** What kind of oddity (failures are grouped by it), e.g. `content encoding`. */
  kind: string;
  label: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send only this many bytes of the body, then cut the connection (a client gone mid-upload). */
  cutAfterBytes?: number;
}

/** One failed expectation. */
export interface FuzzFailure {
  route: string;
  cause: string;
  /** The kind of oddity of the request (see {@link FuzzPayload.kind}). */
  kind: string;
  input: string;
  detail: string;
}

export interface FuzzReport {
  name: string;
  seed: number;
  runsPerRoute: number;
  requests: number;
  /** Answers by HTTP status; `hang`, `dropped` and `cut` for requests without one. */
  histogram: Record<string, number>;
  failures: FuzzFailure[];
  durationMs: number;
}

export interface FuzzOptions {
  /** Shown in the summary, e.g. `bff`. */
  name: string;
  /** `http://127.0.0.1:<port>` of the app under test. */
  baseUrl: string;
  routes: FuzzRoute[];
  credentials: FuzzCredential[];
  /** Unique text put into every generated e-mail and username, to find and delete what the run created. */
  marker: string;
  /** A GET path that must still answer 200 after the run (`/health/live`, `/api/health`). */
  healthPath: string;
  /** Requests per route; default `FUZZ_RUNS` or 40. */
  runsPerRoute?: number;
  /** Default `FUZZ_SEED` or 13. */
  seed?: number;
  /** Per request, in ms; longer counts as a hang. Default 15 000. */
  timeoutMs?: number;
  /** Requests in flight at once; default 4. */
  concurrency?: number;
}

/** The seed of this run: `FUZZ_SEED` when set, else 13 (fixed, so runs repeat). */
export function fuzzSeed(): number {
  const fromEnv = Number(process.env.FUZZ_SEED);
  return Number.isInteger(fromEnv) && process.env.FUZZ_SEED ? fromEnv : 13;
}

/** Requests per route: `FUZZ_RUNS` when set (scale up locally), else `fallback`. */
export function fuzzRuns(fallback = 40): number {
  const fromEnv = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}
