/**
 * Outgoing e-mail over SMTP (nodemailer), for every service that sends
 * mail (identity-profile's password resets, brand's invitations). Locally
 * the SMTP catcher of the stack receives everything (docs/conventions.md `SMTP_URL`). The transport
 * is not pooled: each mail opens and closes its own connection, so there is
 * nothing to close at stop.
 */
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  /** Plain-text body. */
  text: string;
  /** HTML body (the same content). */
  html: string;
}

export interface Mailer {
  /**
   * Hands the mail to the SMTP server.
   * @throws Error when the server cannot be reached or refuses the mail
   */
  send(mail: Mail): Promise<void>;
}

/**
 * @param smtpUrl e.g. `smtp://127.0.0.1:1025` (`smtps://user:pass@host:465` for TLS with login)
 * @param from the sender, e.g. `Raly <no-reply@raly.local>`
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
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
