/**
 * The sign-in device cookie (OWASP "Slow Down Online Guessing Attacks with
 * Device Cookies"): after a successful sign-in the BFF gives the browser an
 * httpOnly, SameSite=Strict cookie bound to that e-mail, so that when
 * strangers have spent the e-mail's failure budget the owner's own browser
 * still gets through (docs/api.md "Rate limits").
 *
 * Value: `<deviceId>.<issuedAtSeconds>.<mac>`, where `mac` is
 * base64url(HMAC-SHA256(DEVICE_COOKIE_SECRET, `deviceId.issuedAt.email`)).
 * The e-mail is not in the cookie; a cookie is valid only for the e-mail it
 * was issued for, and only for DEVICE_COOKIE_MAX_AGE_SECONDS.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

/** Name of the cookie; its path is `/api/auth`, so only the sign-in routes see it. */
export const DEVICE_COOKIE_NAME = 'raly_device';
const COOKIE_PATH = '/api/auth';

export interface DeviceCookieSettings {
  /** HMAC key, at least 32 characters. */
  secret: string;
  /** Lifetime in seconds. */
  maxAgeSeconds: number;
}

export interface DeviceCookies {
  /**
   * @param email the e-mail the request signs in as, normalised (trimmed, lowercased)
   * @returns the device id of the request's cookie when it is valid for that e-mail, else undefined
   */
  deviceOf(request: Request, email: string): string | undefined;
  /**
   * Sets the cookie for `email` on the answer (Secure when the request came over HTTPS).
   * @param deviceId keeps the device's id (its failure budget) when given; a new one otherwise
   */
  issue(request: Request, response: Response, email: string, deviceId?: string): void;
}

/** The value of one cookie of the request's `Cookie` header, or undefined. */
function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name)
      return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** @param settings the key and lifetime (DEVICE_COOKIE_SECRET, DEVICE_COOKIE_MAX_AGE_SECONDS) */
export function createDeviceCookies(settings: DeviceCookieSettings): DeviceCookies {
  const macOf = (deviceId: string, issuedAt: string, email: string) =>
    createHmac('sha256', settings.secret)
      .update(`${deviceId}.${issuedAt}.${email}`)
      .digest('base64url');
  return {
    deviceOf(request, email) {
      const [deviceId, issuedAt, mac, ...rest] = (
        cookieValue(request, DEVICE_COOKIE_NAME) ?? ''
      ).split('.');
      if (!deviceId || !issuedAt || !mac || rest.length > 0 || !/^\d+$/.test(issuedAt))
        return undefined;
      const ageSeconds = Date.now() / 1000 - Number(issuedAt);
      if (ageSeconds < 0 || ageSeconds > settings.maxAgeSeconds) return undefined;
      const expected = Buffer.from(macOf(deviceId, issuedAt, email));
      const given = Buffer.from(mac);
      return given.length === expected.length && timingSafeEqual(given, expected)
        ? deviceId
        : undefined;
    },
    issue(request, response, email, deviceId = randomBytes(16).toString('base64url')) {
      const issuedAt = String(Math.floor(Date.now() / 1000));
      response.cookie(
        DEVICE_COOKIE_NAME,
        `${deviceId}.${issuedAt}.${macOf(deviceId, issuedAt, email)}`,
        {
          httpOnly: true,
          sameSite: 'strict',
          secure: request.secure,
          path: COOKIE_PATH,
          maxAge: settings.maxAgeSeconds * 1000,
          // The value is already URL-safe (base64url and dots).
          encode: String,
        },
      );
    },
  };
}
