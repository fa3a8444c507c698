import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startMailCatcher, type MailCatcher } from '@portal/dev-stack';
import { fakePdf } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { createSmtpMailer } from './mailer.ts';

const INGEST_TOKEN = 'test-ingest-token-for-arrival-mail-0123456789';

/** Polls until `check` holds, for what a background job does (mail): a busy machine gets its time. */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('arrival mail', () => {
  let catcher: MailCatcher;
  // No PORTAL_URL, as outside production it may be left out.
  const env: Record<string, string> = { INGEST_TOKEN };
  before(async () => {
    catcher = await startMailCatcher();
    env.SMTP_URL = catcher.smtpUrl;
  });
  after(() => catcher?.close());
  const t = useTestApp({ env });

  const ask = (idToken: string, parcelCode: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/arrival-notices',
      headers: { ...t.bearer(idToken), ...headers },
      payload: { parcelCode },
    });
  const store = async (parcelCode: string) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: Buffer.from(fakePdf(parcelCode)),
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
    });
    assert.equal(response.statusCode, 201, response.body);
  };
  const auditOf = (actor: string) =>
    eventually(async () =>
      (await t.app.domain.audit.list({ limit: 100, offset: 0 })).find(
        (entry) => entry.action === 'invoice.arrival-notice' && entry.actor === actor,
      ),
    );

  it('is not sent to a person the directory deactivated after they asked: the rule of opening the invoice', async () => {
    catcher.mails.length = 0;
    const leaver = await t.createAccount('deactivated@example.com');
    const stayer = await t.createAccount('stayer@example.com');
    for (const person of [leaver, stayer]) assert.equal((await ask(person.idToken, 'LEFT1')).statusCode, 201);
    // SCIM active=false: the row stays listed, and GET /invoice refuses them.
    await t.app.domain.users.update('deactivated@example.com', { suspended: true });
    const opened = await t.app.inject({ url: '/api/invoice?parcelCode=LEFT1', headers: t.bearer(leaver.idToken) });
    assert.equal(opened.statusCode, 401);

    await store('LEFT1');
    await eventually(() => (catcher.mails.length > 0 ? true : undefined));
    await t.app.domain.arrivalNotifier.runDue();
    assert.deepEqual(
      catcher.mails.map((mail) => mail.to[0]),
      ['stayer@example.com'],
    );
    const refused = await auditOf('deactivated@example.com');
    assert.equal(refused.outcome, 'refused');
    assert.match(refused.detail ?? '', /deactivated by the directory/);
  });

  it("links to the portal's configured address, never to the Host the request named", async () => {
    catcher.mails.length = 0;
    const person = await t.createAccount('person@example.com');
    const response = await ask(person.idToken, 'HOST1', {
      host: 'portal.attacker.example',
      'x-forwarded-host': 'portal.attacker.example',
    });
    assert.equal(response.statusCode, 201);
    await store('HOST1');
    const mail = await eventually(() => catcher.mails.find((sent) => sent.subject.includes('HOST1')));
    assert.doesNotMatch(mail.text, /attacker/);
    assert.match(mail.text, /http:\/\/localhost:8080\/invoice\?parcelCode=HOST1/);
  });

  it('honours the relay URL’s requireTLS: nothing goes over a connection STARTTLS did not encrypt', async () => {
    catcher.mails.length = 0;
    const mail = { to: 'someone@example.com', subject: 'a subject', text: 'a text' };
    // The catcher offers no STARTTLS, as a relay stripped of it by someone on the path would.
    const strict = createSmtpMailer({ smtpUrl: `${catcher.smtpUrl}?requireTLS=true`, from: 'portal@example.com' });
    await assert.rejects(strict.send(mail));
    strict.close();
    assert.equal(catcher.mails.length, 0);
    const plain = createSmtpMailer({ smtpUrl: catcher.smtpUrl, from: 'portal@example.com' });
    await plain.send(mail);
    plain.close();
    assert.equal(catcher.mails.length, 1);
  });
});
