/**
 * Rate limits of the public `/api` routes (docs/api.md "Rate limits"),
 * counted in Redis with rate-limiter-flexible so every BFF instance shares
 * them. A route's limiter consumes one point from each of its buckets —
 * per client address (`request.ip`, which honours TRUST_PROXY) and, for
 * sign-in and forgot-password, per e-mail — and answers 429
 * `resource-exhausted` (callables: `error.status` too) with `Retry-After`
 * when any bucket is empty. If Redis fails, the request is let through and
 * the failure logged: Keycloak's brute-force detection still guards passwords.
 */
import type { Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@raly/service-kit/logger';
import type { Config, RateLimitSetting } from '../config';
import { failures } from '../errors/failures';

export interface RateLimits {
  /** POST /api/auth/login: per e-mail and per client address. */
  login: RequestHandler;
  /** POST /api/auth/forgot-password: per e-mail and per client address. */
  forgotPassword: RequestHandler;
  /** POST /api/callable/*: per client address. */
  callable: RequestHandler;
  /** POST /api/accounts: per client address. */
  createAccount: RequestHandler;
}

type Scope = 'ip' | 'email';

interface Bucket {
  scope: Scope;
  limiter: RateLimiterRedis;
}

/** The e-mail a request is about, normalised; undefined when the body has none. */
const emailOf = (request: Request): string | undefined => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined;
};

const keyFor = (scope: Scope, request: Request): string | undefined =>
  scope === 'ip' ? (request.ip ?? request.socket.remoteAddress) : emailOf(request);

/**
 * Builds the limiters from the configuration.
 * @param redis the BFF's Redis connection (ioredis)
 * @param config RATE_LIMIT_* settings and the key prefix
 */
export function createRateLimits(redis: Redis, config: Config, logger: Logger): RateLimits {
  const bucket = (name: string, scope: Scope, setting: RateLimitSetting): Bucket => ({
    scope,
    limiter: new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.RATE_LIMIT_KEY_PREFIX}:${name}:${scope}`,
      points: setting.points,
      duration: setting.durationSeconds,
    }),
  });

  const limit =
    (name: string, buckets: Bucket[]): RequestHandler =>
    async (request, response, next) => {
      let retryAfterMs = 0;
      for (const { scope, limiter } of buckets) {
        const key = keyFor(scope, request);
        if (!key) continue;
        try {
          await limiter.consume(key);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) {
            logger.warn(
              { err: error, limit: name, scope },
              'rate limiter unavailable; request let through',
            );
            continue;
          }
          retryAfterMs = Math.max(retryAfterMs, error.msBeforeNext);
        }
      }
      if (retryAfterMs === 0) {
        next();
        return;
      }
      const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
      response.setHeader('Retry-After', String(retryAfterSeconds));
      next(failures.tooManyRequests(retryAfterSeconds));
    };

  return {
    login: limit('login', [
      bucket('login', 'ip', config.RATE_LIMIT_LOGIN_PER_IP),
      bucket('login', 'email', config.RATE_LIMIT_LOGIN_PER_EMAIL),
    ]),
    forgotPassword: limit('forgot-password', [
      bucket('forgot-password', 'ip', config.RATE_LIMIT_FORGOT_PASSWORD_PER_IP),
      bucket('forgot-password', 'email', config.RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL),
    ]),
    callable: limit('callable', [bucket('callable', 'ip', config.RATE_LIMIT_CALLABLE_PER_IP)]),
    createAccount: limit('create-account', [
      bucket('create-account', 'ip', config.RATE_LIMIT_CREATE_ACCOUNT_PER_IP),
    ]),
  };
}
