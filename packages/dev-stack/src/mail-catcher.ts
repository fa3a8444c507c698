import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  id: number;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
}

export interface StartMailCatcherOptions {
  /** The SMTP port; 0 picks a free one. */
  smtpPort?: number;
  /** The port of the web/JSON view; 0 picks a free one. */
  httpPort?: number;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A local SMTP server that keeps every mail it is given, for `npm start` and the tests, as the Auth emulator
 * keeps its reset links: the portal sends to it like to any relay (SMTP_URL), and people read the mail at its
 * web page, tests at GET /messages (JSON). Nothing leaves the machine. `stop()` and `start()` again (same SMTP
 * port) stand for a relay outage.
 */
export async function startMailCatcher(options: StartMailCatcherOptions = {}) {
  const mails: CaughtMail[] = [];
  let nextId = 1;

  const makeSmtp = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        // Loaded with the first mail, not with npm start: mailparser is a fifth of a second of loading that
        // every start would wait for, and most starts send no mail. The stream waits, buffered, meanwhile.
        import('mailparser')
          .then(({ simpleParser }) => simpleParser(stream))
          .then((parsed) => {
            const to = session.envelope.rcptTo.map((recipient) => recipient.address);
            mails.push({
              id: nextId++,
              receivedAt: new Date().toISOString(),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to,
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : null,
            });
            callback();
          })
          .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
      },
    });

  let smtp = makeSmtp();
  const listenSmtp = (port: number) =>
    new Promise<number>((resolve, reject) => {
      smtp.once('error', reject);
      smtp.listen(port, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port));
    });
  const smtpPort = await listenSmtp(options.smtpPort ?? 0);

  const web = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'DELETE' && url.pathname === '/messages') {
      mails.length = 0;
      return void response.writeHead(204).end();
    }
    if (request.method === 'GET' && url.pathname === '/messages') {
      const to = url.searchParams.get('to');
      const list = to ? mails.filter((mail) => mail.to.includes(to)) : mails;
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
    }
    if (request.method === 'GET' && url.pathname === '/') {
      const items = [...mails]
        .reverse()
        .map(
          (mail) =>
            `<article><h2>${escapeHtml(mail.subject)}</h2><p>${escapeHtml(mail.receivedAt)} · to ${escapeHtml(
              mail.to.join(', '),
            )} · from ${escapeHtml(mail.from)}</p><pre>${escapeHtml(mail.text)}</pre></article>`,
        )
        .join('\n');
      const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Mail catcher</title>
<style>body{font:16px system-ui;margin:2rem;max-width:60rem}pre{white-space:pre-wrap;background:#f4f4f4;padding:1rem}</style>
<h1>Mail sent by the portal (${mails.length})</h1>${items || '<p>No mail yet.</p>'}</html>`;
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    }
    response.writeHead(404).end();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      web.once('error', reject);
      web.listen(options.httpPort ?? 0, '127.0.0.1', resolve);
    });
  } catch (error) {
    // Its page's port is taken: give the SMTP port back too, so the caller may try others.
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    throw error;
  }
  const { port: httpPort } = web.address() as AddressInfo;
  let smtpRunning = true;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smtpPort,
    url: `http://127.0.0.1:${httpPort}`,
    mails,
    /** Stops taking mail (the port refuses connections), as a relay outage would. */
    async stopSmtp() {
      if (!smtpRunning) return;
      smtpRunning = false;
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
    /** Takes mail again on the same port. */
    async startSmtp() {
      if (smtpRunning) return;
      smtp = makeSmtp();
      await listenSmtp(smtpPort);
      smtpRunning = true;
    },
    async close() {
      await this.stopSmtp();
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}

export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;
