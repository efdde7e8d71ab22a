/**
 * Progress lines for long stack steps ("keycloak: starting (≈40 s)… 12 s"), so a
 * cold start never looks frozen. On a terminal the elapsed counter ticks in place;
 * in CI (no TTY) a line is printed every 10 seconds instead.
 */
export function say(component: string, message: string): void {
  process.stdout.write(`${component}: ${message}\n`);
}

export async function withProgress<T>(
  component: string,
  message: string,
  work: () => Promise<T>,
): Promise<T> {
  const startedAt = Date.now();
  const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)} s`;
  say(component, `${message}…`);
  const interval = process.stdout.isTTY ? 5000 : 10000;
  const ticker = setInterval(() => say(component, `${message}… ${elapsed()}`), interval);
  ticker.unref();
  try {
    const result = await work();
    say(component, `${message}: done in ${elapsed()}`);
    return result;
  } finally {
    clearInterval(ticker);
  }
}
