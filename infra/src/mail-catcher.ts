/**
 * Reads the mails the SMTP catcher (MailDev) caught, through its HTTP API
 * (GET /email), so tests can assert on messages the services sent.
 */
export interface CaughtMail {
  id: string;
  subject: string;
  from: string[];
  to: string[];
  text: string;
  html: string;
  date: Date;
  /** The header lines, names in lower case (e.g. `list-unsubscribe`). */
  headers: Record<string, string>;
}

interface MailDevMessage {
  id: string;
  subject?: string;
  from?: { address: string }[];
  to?: { address: string }[];
  text?: string;
  html?: string;
  date?: string;
  time?: string;
  headers?: Record<string, string | string[]>;
}

function defaultCatcherUrl(): string {
  return process.env.SMTP_CATCHER_URL ?? 'http://127.0.0.1:1080';
}

/** Caught mails, oldest first; only those to `to` (case-insensitive) when given. */
export async function listMails(
  to?: string,
  catcherUrl = defaultCatcherUrl(),
): Promise<CaughtMail[]> {
  const response = await fetch(`${catcherUrl.replace(/\/$/, '')}/email`, {
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok)
    throw new Error(`SMTP catcher answered HTTP ${response.status} at ${catcherUrl}/email`);
  const messages = (await response.json()) as MailDevMessage[];
  const mails = messages.map((message) => ({
    id: message.id,
    subject: message.subject ?? '',
    from: (message.from ?? []).map((address) => address.address),
    to: (message.to ?? []).map((address) => address.address),
    text: message.text ?? '',
    html: message.html ?? '',
    date: new Date(message.date ?? message.time ?? 0),
    headers: Object.fromEntries(
      Object.entries(message.headers ?? {}).map(([name, value]) => [
        name.toLowerCase(),
        Array.isArray(value) ? value.join(', ') : value,
      ]),
    ),
  }));
  const recipient = to?.toLowerCase();
  return recipient
    ? mails.filter((mail) => mail.to.some((address) => address.toLowerCase() === recipient))
    : mails;
}

/** Waits for the first mail to `to` that matches, polling the catcher. */
export async function waitForMail(
  to: string,
  options: {
    matching?: (mail: CaughtMail) => boolean;
    timeoutMs?: number;
    catcherUrl?: string;
  } = {},
): Promise<CaughtMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const mails = await listMails(to, options.catcherUrl);
    const found = mails.find(options.matching ?? (() => true));
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no mail to ${to} arrived within ${options.timeoutMs ?? 15_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
