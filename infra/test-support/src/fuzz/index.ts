/**
 * `@raly/test-support/fuzz`: HTTP fuzzing for the services' and the BFF's
 * fuzz tests. Tests only; never imported by service code.
 *
 * A test lists its app's routes ({@link FuzzRoute}), checks the list against
 * the routes the express app really registers ({@link registeredRoutes}),
 * and hands it to {@link runFuzz} with the credentials it made through the
 * real flows. For every route, fast-check draws `FUZZ_RUNS` requests (seeded
 * by `FUZZ_SEED`): wrong JSON types per field, control characters and NUL,
 * 10k–200k character strings, nesting up to 20,000 levels, malformed JSON,
 * wrong content types, gzip/deflate bodies (valid, corrupt, inflating past
 * the limit), unsupported encodings and charsets, malformed percent-encodings
 * and NUL in path parameters, multipart bodies cut short or with a wrong
 * boundary, bodies cut off mid-stream, large headers, and missing, forged,
 * ID and wrong service tokens; and every path parameter once as `.`, `..`,
 * `%2e`, `%2E%2E` and empty. Every answer must be a 4xx with
 * `{ error: { code, message } }` (docs/api.md) or a success; a 5xx, a hang,
 * a dropped connection, an uncaught exception in the process, a success with
 * credentials the route must refuse, or a dead server after the run is a
 * failure. Requests go to 127.0.0.1 only, each with a timeout.
 *
 * Rooms: types (vocabulary), routes (express), values, bodies, multipart and
 * paths (generators), cases (the draw), send, judge, report, run (runner and
 * vitest tests), credentials, keycloak (ID tokens, clean-up).
 */
export { drawCases } from './cases';
export { fuzzCredentials } from './credentials';
export { deleteFuzzUsers, idTokenOf } from './keycloak';
export { PNG } from './multipart';
export { dotSegments } from './paths';
export { failureReport, summary } from './report';
export {
  assertCoversEveryRoute,
  fuzzedRoutes,
  recordExpressApps,
  registeredRoutes,
} from './routes';
export { assertFuzzClean, describeFuzz, runFuzz, type FuzzSubject } from './run';
export {
  fuzzRuns,
  fuzzSeed,
  type FuzzAuth,
  type FuzzCase,
  type FuzzCredential,
  type FuzzFailure,
  type FuzzOptions,
  type FuzzPayload,
  type FuzzReport,
  type FuzzRoute,
} from './types';
export { UNIQUE } from './values';
