import type nodemailer from 'nodemailer';
import { onFirstUse } from '../../../shared/on-first-use.js';

// Loaded when an SMTP transport is made (SMTP_URL set), not at every start.
const mailer = onFirstUse<typeof nodemailer>('nodemailer');

export interface OutgoingMail {
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** `<id@domain>`: the same for every attempt of one outbox message, so a retried send can be recognised. */
  messageId: string;
  headers?: Record<string, string> | undefined;
}

/** Where messages go: SMTP through nodemailer; absent when SMTP_URL is unset (messages stay `not_sent`). */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A pooled SMTP transport over `SMTP_URL` (smtp:// or smtps://, credentials in the URL). */
export function smtpTransport(smtpUrl: string, from: string, maxConnections = 5): MailTransport {
  const url = new URL(smtpUrl);
  url.searchParams.set('pool', 'true');
  url.searchParams.set('maxConnections', String(maxConnections));
  const transporter = mailer().createTransport(url.toString());
  return {
    async send(mail) {
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        messageId: mail.messageId,
        ...(mail.headers && { headers: mail.headers }),
      });
    },
    close: () => transporter.close(),
  };
}
