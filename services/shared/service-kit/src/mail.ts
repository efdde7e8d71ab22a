/**
 * Outgoing e-mail over SMTP (nodemailer), for every service that sends
 * mail (identity-profile's password resets, brand's invitations,
 * notifications' digests). `SMTP_URL` is `smtp://host:port` (STARTTLS when
 * the server offers it) or `smtps://user:pass@host:465` (TLS from the
 * start). Locally the SMTP catcher of the stack receives everything
 * (docs/conventions.md `SMTP_URL`). The transport is not pooled: each mail
 * opens and closes its own connection, so there is nothing to close at stop.
 */
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  /** Plain-text body. */
  text: string;
  /** HTML body (the same content). */
  html: string;
  /**
   * `Message-ID` (RFC 5322), e.g. `<digest-…@raly>`: give the same one to every attempt of one
   * mail so a repeat is recognisable; nodemailer makes one when absent.
   */
  messageId?: string;
  /** Further header lines, e.g. `List-Unsubscribe` (RFC 2369, RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /**
   * Hands the mail to the SMTP server; resolves once the server accepted it.
   * @throws Error when the server cannot be reached, times out or refuses the mail
   */
  send(mail: Mail): Promise<void>;
}

/**
 * @param smtpUrl e.g. `smtp://127.0.0.1:1025` (`smtps://user:pass@host:465` for TLS with login)
 * @param from the sender, e.g. `Raly <no-reply@raly.local>`
 * @param timeoutMs connection, greeting and socket timeouts, in ms: a server that stops answering
 *   fails the send instead of holding it
 */
export function smtpMailer(smtpUrl: string, from: string, timeoutMs = 10_000): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    secure: new URL(smtpUrl).protocol === 'smtps:',
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
    },
  };
}

/**
 * Text made safe inside HTML text and double-quoted attributes.
 * @param text any text, e.g. a link or a brand's name
 * @returns the text with `&`, `"`, `<` and `>` escaped
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}
