/**
 * Outgoing e-mail over SMTP (nodemailer): `SMTP_URL` (`smtp://host:port`,
 * STARTTLS when the server offers it; `smtps://user:pass@host:465` for TLS
 * from the start). Locally the stack's SMTP catcher receives everything. The
 * transport is not pooled: each mail opens and closes its own connection.
 */
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain-text part. */
  text: string;
  /** HTML part (the same content). */
  html: string;
  /** `Message-ID` (RFC 5322), e.g. `<digest-…@raly>`: the same for every attempt of one mail. */
  messageId: string;
  /** Further header lines, e.g. `List-Unsubscribe`. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /**
   * Hands the mail to the SMTP server; resolves once the server accepted it.
   * @throws Error when the server cannot be reached, times out or refuses the mail
   */
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * @param smtpUrl e.g. `smtp://127.0.0.1:1025`
 * @param from the sender, e.g. `Raly <no-reply@raly.local>`
 * @param timeoutMs connection, greeting and socket timeouts, in ms
 */
export function smtpMailer(smtpUrl: string, from: string, timeoutMs = 10_000): Mailer {
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    secure: url.protocol === 'smtps:',
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
        messageId: mail.messageId,
        headers: mail.headers,
      });
    },
  };
}
