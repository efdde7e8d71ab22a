/** What the user reads when a call to the BFF fails (spec §8: "notification shows the returned error text"). */

/**
 * The message to show for a failed call: the BFF's `error.message` (the spec
 * text when the spec has one), else `fallback`.
 */
export function apiErrorMessage(error: unknown, fallback: string): string {
  // A failed RTK Query call rejects with { status, data }, data being the BFF's error body.
  const body = (error as { data?: { error?: { message?: unknown } } } | null)?.data;
  const message = body?.error?.message;
  return typeof message === 'string' && message ? message : fallback;
}
