/**
 * Rate limits of the public `/api` routes (docs/api.md "Rate limits"),
 * counted in Redis with rate-limiter-flexible so every BFF instance shares
 * them. A request takes one point from each of its buckets; when any bucket
 * is empty, the points it took are given back and it is answered 429
 * `resource-exhausted` (callables: `error.status` too) with `Retry-After`.
 *
 * The client address is `request.ip`: the peer's socket address, or what a
 * trusted proxy (TRUST_PROXY) reports in X-Forwarded-For.
 *
 * Sign-in counts failures only (a success gives its points back) and follows
 * OWASP's device-cookie scheme: a browser with a valid device cookie for the
 * e-mail (./device-cookie.ts) spends its own budget, so strangers who spent
 * the e-mail's budget cannot lock its owner out. If Redis fails, the request
 * is let through and the failure logged: Keycloak's brute-force detection
 * still guards passwords.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';
import type { Config, RateLimitSetting } from '../config';
import { bffErrors } from '../domain/errors';
import { createDeviceCookies } from './device-cookie';

export interface RateLimits {
  /**
   * POST /api/auth/login: runs `attempt` (the password check) within the
   * caller's failure budgets — per client address, per (address, e-mail)
   * and per e-mail, or, with a valid device cookie, per device. A refusal
   * (`unauthenticated`) is counted; a success is not, and answers a fresh
   * device cookie.
   * @returns what `attempt` returned
   * @throws AppError `resource-exhausted` (and sets Retry-After) when a budget is spent; whatever `attempt` throws
   */
  login<T>(request: Request, response: Response, attempt: () => Promise<T>): Promise<T>;
  /** POST /api/auth/forgot-password, reset-password: per e-mail and per client address. */
  forgotPassword: RequestHandler;
  /** POST /api/auth/refresh: per client address (RATE_LIMIT_REFRESH_PER_IP). */
  refresh: RequestHandler;
  /** POST /api/callable/*: per client address. */
  callable: RequestHandler;
  /** POST /api/accounts: per client address and per e-mail of the registration. */
  createAccount: RequestHandler;
  /**
   * POST /api/auth/verify-password, after `requireUser`: one point of the
   * signed-in user's password-check budget (see `passwordCheck`).
   */
  verifyPassword: RequestHandler;
  /**
   * One password check of the signed-in user (`request.caller`): takes a
   * point from the per-user budget RATE_LIMIT_VERIFY_PASSWORD_PER_USER, the
   * one bucket that POST /api/auth/verify-password and PATCH /api/me (e-mail
   * change with `currentPassword`) share. No user: nothing is taken.
   * @throws AppError `resource-exhausted` (and sets Retry-After) when the budget is spent
   */
  passwordCheck(request: Request, response: Response): Promise<void>;
  /** POST /api/offers/:id/applications, after `requireUser`: per signed-in user. */
  apply: RequestHandler;
  /** POST /api/offers, after `requireUser`: per signed-in user. */
  createOffer: RequestHandler;
  /** POST /api/collaborations/:id/messages, after `requireUser`: per signed-in user. */
  sendMessage: RequestHandler;
  /** POST /api/collaborations/:id/deliverables/:deliverableId/submissions, after `requireUser`: per signed-in user. */
  submitDeliverable: RequestHandler;
  /** POST /api/collaborations/:id/review, after `requireUser`: per signed-in user. */
  leaveReview: RequestHandler;
  /** POST /api/reports, after `requireUser`: per signed-in user (RATE_LIMIT_REPORTS_PER_USER). */
  report: RequestHandler;
  /** POST /api/notifications/:id/read and /read-all, after `requireUser`: per signed-in user. */
  markRead: RequestHandler;
  /** PUT /api/notifications/preferences, after `requireUser`: per signed-in user. */
  updatePreferences: RequestHandler;
  /** POST /api/unsubscribe/:token (no sign-in): per client address. */
  unsubscribe: RequestHandler;
  /** POST /api/console/{creators,brands}/:id/contact-view, after `requireStaff`: per staff member. */
  contactView: RequestHandler;
}

/** One point taken from one bucket. */
interface Charge {
  limiter: RateLimiterRedis;
  key: string;
}

const normalised = (email: unknown): string | undefined =>
  typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined;

/** The e-mail a request is about (`email`, or `registration.email` of an account), normalised. */
const emailOf = (request: Request): string | undefined => {
  const body = request.body as
    { email?: unknown; registration?: { email?: unknown } | null } | undefined;
  return normalised(body?.email) ?? normalised(body?.registration?.email);
};

const clientAddressOf = (request: Request): string =>
  request.ip ?? request.socket.remoteAddress ?? 'unknown';

/**
 * Builds the limiters from the configuration.
 * @param redis the BFF's Redis connection (ioredis)
 * @param config RATE_LIMIT_* settings, the key prefix and the device cookie's secret
 * @param logger where an unavailable Redis is reported
 */
export function createRateLimits(redis: Redis, config: Config, logger: Logger): RateLimits {
  const bucket = (name: string, setting: RateLimitSetting) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.RATE_LIMIT_KEY_PREFIX}:${name}`,
      points: setting.points,
      duration: setting.durationSeconds,
    });
  const devices = createDeviceCookies({
    secret: config.DEVICE_COOKIE_SECRET,
    maxAgeSeconds: config.DEVICE_COOKIE_MAX_AGE_SECONDS,
  });

  /** Gives the points back (best effort: a Redis failure is logged). */
  const refund = async (charges: Charge[], name: string) => {
    await Promise.all(
      charges.map(({ limiter, key }) =>
        limiter.reward(key, 1).catch((error: unknown) => {
          logger.warn({ err: error, limit: name }, 'rate limiter unavailable; point not refunded');
        }),
      ),
    );
  };

  /**
   * Takes one point from every bucket.
   * @returns the charges taken
   * @throws AppError resource-exhausted after refunding them, when any bucket is empty
   */
  const take = async (name: string, charges: Charge[], response: Response): Promise<Charge[]> => {
    // All buckets at once: one Redis round trip's wait, not one per bucket (sign-in latency).
    const outcomes = await Promise.allSettled(
      charges.map((charge) => charge.limiter.consume(charge.key)),
    );
    const taken: Charge[] = [];
    let retryAfterMs = 0;
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') {
        taken.push(charges[index]!);
      } else if (outcome.reason instanceof RateLimiterRes) {
        retryAfterMs = Math.max(retryAfterMs, outcome.reason.msBeforeNext);
      } else {
        logger.warn(
          { err: outcome.reason, limit: name },
          'rate limiter unavailable; request let through',
        );
      }
    });
    if (retryAfterMs === 0) return taken;
    await refund(taken, name);
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    response.setHeader('Retry-After', String(retryAfterSeconds));
    throw bffErrors.tooManyRequests(retryAfterSeconds);
  };

  /** Middleware taking a point per bucket; a bucket whose key is undefined is skipped. */
  const limit =
    (
      name: string,
      buckets: [RateLimiterRedis, (request: Request, response: Response) => string | undefined][],
    ): RequestHandler =>
    async (request, response, next) => {
      const charges = buckets.flatMap(([limiter, keyOf]) => {
        const key = keyOf(request, response);
        return key === undefined ? [] : [{ limiter, key }];
      });
      try {
        await take(name, charges, response);
        next();
      } catch (error) {
        next(error);
      }
    };

  const byAddress = (request: Request) => clientAddressOf(request);
  const byEmail = (request: Request) => emailOf(request);
  /** The signed-in user (`requireUser` ran before); no user, no charge. */
  const byUser = (request: Request) => request.caller?.userId;
  /** The console's staff member (`requireStaff` ran before); none, no charge. */
  const byStaff = (request: Request) => request.staff?.userId;

  const login = {
    perAddress: bucket('login:ip', config.RATE_LIMIT_LOGIN_PER_IP),
    perAddressAndEmail: bucket('login:ip-email', config.RATE_LIMIT_LOGIN_PER_IP_AND_EMAIL),
    perEmail: bucket('login:email', config.RATE_LIMIT_LOGIN_PER_EMAIL),
    perDevice: bucket('login:device', config.RATE_LIMIT_LOGIN_PER_DEVICE),
  };

  const passwordChecksPerUser = bucket(
    'verify-password:user',
    config.RATE_LIMIT_VERIFY_PASSWORD_PER_USER,
  );
  const passwordCheck = async (request: Request, response: Response): Promise<void> => {
    const userId = request.caller?.userId;
    if (userId === undefined) return;
    await take('verify-password', [{ limiter: passwordChecksPerUser, key: userId }], response);
  };

  return {
    async login<T>(request: Request, response: Response, attempt: () => Promise<T>): Promise<T> {
      const email = emailOf(request);
      const address = clientAddressOf(request);
      const deviceId = email ? devices.deviceOf(request, email) : undefined;
      const charges: Charge[] = deviceId
        ? [{ limiter: login.perDevice, key: `${deviceId}:${email}` }]
        : [
            { limiter: login.perAddress, key: address },
            ...(email
              ? [
                  { limiter: login.perAddressAndEmail, key: `${address}:${email}` },
                  { limiter: login.perEmail, key: email },
                ]
              : []),
          ];
      const taken = await take('login', charges, response);
      let result: T;
      try {
        result = await attempt();
      } catch (error) {
        // Only refusals of the password count; anything else gives the points back.
        if (!(error instanceof AppError && error.code === 'unauthenticated'))
          await refund(taken, 'login');
        throw error;
      }
      // Not awaited: the answer does not depend on it, and ioredis sends it ahead of any later
      // request's charge on the same connection, so the next sign-in already finds the points back.
      void refund(taken, 'login');
      if (email) devices.issue(request, response, email, deviceId);
      return result;
    },
    forgotPassword: limit('forgot-password', [
      [bucket('forgot-password:ip', config.RATE_LIMIT_FORGOT_PASSWORD_PER_IP), byAddress],
      [bucket('forgot-password:email', config.RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL), byEmail],
    ]),
    refresh: limit('refresh', [
      [bucket('refresh:ip', config.RATE_LIMIT_REFRESH_PER_IP), byAddress],
    ]),
    callable: limit('callable', [
      [bucket('callable:ip', config.RATE_LIMIT_CALLABLE_PER_IP), byAddress],
    ]),
    createAccount: limit('create-account', [
      [bucket('create-account:ip', config.RATE_LIMIT_CREATE_ACCOUNT_PER_IP), byAddress],
      [bucket('create-account:email', config.RATE_LIMIT_CREATE_ACCOUNT_PER_EMAIL), byEmail],
    ]),
    verifyPassword: (request, response, next) => {
      passwordCheck(request, response).then(() => next(), next);
    },
    passwordCheck,
    apply: limit('apply', [[bucket('apply:user', config.RATE_LIMIT_APPLY_PER_USER), byUser]]),
    createOffer: limit('create-offer', [
      [bucket('create-offer:user', config.RATE_LIMIT_CREATE_OFFER_PER_USER), byUser],
    ]),
    sendMessage: limit('send-message', [
      [bucket('send-message:user', config.RATE_LIMIT_SEND_MESSAGE_PER_USER), byUser],
    ]),
    submitDeliverable: limit('submit-deliverable', [
      [bucket('submit-deliverable:user', config.RATE_LIMIT_SUBMIT_DELIVERABLE_PER_USER), byUser],
    ]),
    leaveReview: limit('leave-review', [
      [bucket('leave-review:user', config.RATE_LIMIT_LEAVE_REVIEW_PER_USER), byUser],
    ]),
    report: limit('report', [[bucket('report:user', config.RATE_LIMIT_REPORTS_PER_USER), byUser]]),
    markRead: limit('mark-read', [
      [bucket('mark-read:user', config.RATE_LIMIT_MARK_READ_PER_USER), byUser],
    ]),
    updatePreferences: limit('update-preferences', [
      [bucket('update-preferences:user', config.RATE_LIMIT_UPDATE_PREFERENCES_PER_USER), byUser],
    ]),
    unsubscribe: limit('unsubscribe', [
      [bucket('unsubscribe:ip', config.RATE_LIMIT_UNSUBSCRIBE_PER_IP), byAddress],
    ]),
    contactView: limit('contact-view', [
      [bucket('contact-view:staff', config.RATE_LIMIT_CONTACT_VIEW_PER_STAFF), byStaff],
    ]),
  };
}
