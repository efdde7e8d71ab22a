/**
 * Health probes (docs/api.md): `GET /api/health` is liveness (the process
 * answers), `GET /api/health/ready` is readiness (Redis answers PING and the
 * Kafka → Redis projector is consuming).
 */
import { Router } from 'express';

/** One readiness check: resolves when healthy, throws (or rejects) with why not. */
export type ReadinessCheck = () => Promise<void>;

/** How long one check may take before it counts as failed, in ms. */
const checkTimeoutMs = 2000;

/**
 * Runs every check at once.
 * @returns the failed checks' names with their reasons; empty when all passed
 */
export async function failedChecks(
  checks: Record<string, ReadinessCheck>,
): Promise<Record<string, string>> {
  const failures: Record<string, string> = {};
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise<never>((_resolve, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer in ${checkTimeoutMs} ms`)),
              checkTimeoutMs,
            );
          }),
        ]);
      } catch (error) {
        failures[name] = error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return failures;
}

/**
 * Mounted at `/health`.
 * @param checks readiness checks by name (`redis`, `kafka`)
 * @returns 200 `{ status: 'ok' }`; ready: 503 `{ status: 'unavailable', failures: { name: reason } }`
 */
export function healthRouter(checks: Record<string, ReadinessCheck>): Router {
  return Router()
    .get('/', (_request, response) => {
      response.json({ status: 'ok' });
    })
    .get('/ready', async (_request, response) => {
      const failures = await failedChecks(checks);
      if (Object.keys(failures).length === 0) response.json({ status: 'ok' });
      else response.status(503).json({ status: 'unavailable', failures });
    });
}
