import nodemailer from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * The operator's SMTP relay, through nodemailer. SMTP_URL is read by nodemailer itself, so every option its
 * URLs take holds (`?requireTLS=true`: no mail over a connection STARTTLS did not encrypt; `tls.*`, `name`…).
 * Short timeouts unless the URL says otherwise: a relay that does not answer fails the attempt, and the queue
 * tries again later; nothing waits on a mail but the queue.
 */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport({
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    ...parseConnectionUrl(options.smtpUrl),
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}
