/**
 * The W3C Trace Context header every API call of the SPA sends
 * (`traceparent: 00-<trace id>-<span id>-01`, https://www.w3.org/TR/trace-context/):
 * a fresh trace per call, which the BFF continues in its server span, so one
 * user action shows as one trace from the BFF to the socket emit
 * (docs/operations.md "Traces"). A few bytes of code instead of the
 * OpenTelemetry web SDK: the browser records no spans, it only names the
 * trace (the initial JS budget is tight).
 */

/** The header name. */
export const TRACEPARENT_HEADER = 'traceparent';

/** `byteCount` random bytes as lower-case hex, never all zeros (an invalid id). */
function randomHex(byteCount: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(byteCount));
  if (bytes.every((byte) => byte === 0)) bytes[byteCount - 1] = 1;
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A new `traceparent` value: version 00, a random 16-byte trace id, a random
 * 8-byte parent id, flags 01 (sampled: the BFF's sampler decides, see
 * docs/operations.md).
 */
export function newTraceparent(): string {
  return `00-${randomHex(16)}-${randomHex(8)}-01`;
}
