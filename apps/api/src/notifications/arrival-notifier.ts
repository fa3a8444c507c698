import type { AuditTrail } from '../audit/audit-trail.ts';
import { createJobWorker, type JobDone, type JobWorkerDeps } from '../background/job-worker.ts';
import type { InvoicesRepository } from '../invoices/repository.ts';
import { whyNotInvoiceReader } from '../users/invoice-reader.ts';
import type { UsersRepository } from '../users/repository.ts';
import type { ArrivalNoticeRow, ArrivalNoticesRepository } from './arrival-notices.ts';
import type { Mailer } from './mailer.ts';

/** The queue's name in the metrics and the background registry. */
export const ARRIVAL_MAIL_QUEUE = 'arrival-mail';
/** How often the queue is looked at when nothing woke it: mail for an import by another process, retries. */
export const NOTICE_POLL_MS = 5_000;
/** How often requests whose invoice never came are forgotten. */
export const NOTICE_EXPIRY_MS = 60_000;

export interface ArrivalNotifierDeps {
  notices: ArrivalNoticesRepository;
  mailer: Mailer | undefined;
  users: Pick<UsersRepository, 'findByEmail'>;
  invoices: Pick<InvoicesRepository, 'findByParcelCode'>;
  audit: Pick<AuditTrail, 'bestEffort'>;
  productName: string;
  log: JobWorkerDeps['log'];
  onFailure?: JobWorkerDeps['onFailure'];
}

/**
 * Sends the "your invoice has arrived" mail for every request whose invoice was stored, from the durable queue
 * (arrival-notices.ts): at once when this process stored it (`wake`), else within a poll, and again with a
 * growing back-off while the relay fails, so an outage delays mail and loses none. Ingestion only marks the
 * rows; it never waits for a mail.
 *
 * At send time, not when the request was made or queued, the person must still be able to open the invoice by
 * the rule GET /invoice applies (whyNotInvoiceReader: listed, not deactivated by the directory) and the parcel
 * must have an invoice. Otherwise the request is dropped unsent (and audited).
 */
export function createArrivalNotifier(deps: ArrivalNotifierDeps) {
  const { notices, mailer } = deps;
  const ACTION = 'invoice.arrival-notice' as const;

  async function perform(job: ArrivalNoticeRow): Promise<JobDone<'sent' | 'dropped'> | undefined> {
    const event = { actor: job.userEmail, action: ACTION, target: job.parcelCode };
    const [user, invoice] = await Promise.all([
      deps.users.findByEmail(job.userEmail),
      deps.invoices.findByParcelCode(job.parcelCode),
    ]);
    const notReader = whyNotInvoiceReader(user);
    if (notReader !== undefined || !invoice) {
      const why =
        notReader !== undefined ? `the person may not open invoices (${notReader})` : 'the parcel has no invoice';
      return { outcome: 'dropped', audit: { ...event, outcome: 'refused', detail: `not sent: ${why}` } };
    }
    if (!mailer) return undefined;
    await mailer.send({
      to: job.userEmail,
      subject: `The invoice for parcel ${job.parcelCode} has arrived`,
      text: [
        `The invoice for parcel ${job.parcelCode} is now in the ${deps.productName}:`,
        '',
        job.link,
        '',
        `You asked to be told when it arrives on ${job.requestedAt.toISOString().slice(0, 10)}. This is the only`,
        'mail about it; the request is now closed.',
      ].join('\n'),
    });
    const tries = job.attempts > 1 ? ` (attempt ${job.attempts})` : '';
    return { outcome: 'sent', audit: { ...event, outcome: 'ok', detail: `mail sent${tries}` } };
  }

  const worker = createJobWorker(
    {
      name: ARRIVAL_MAIL_QUEUE,
      queue: notices,
      outcomes: ['sent', 'dropped'],
      perform,
      failureAudit: (job, { message, delayMs }) => ({
        actor: job.userEmail,
        action: ACTION,
        target: job.parcelCode,
        outcome: 'failed',
        detail: `mail not sent yet (attempt ${job.attempts}): ${message}; retried in ${Math.round(delayMs / 1000)} s and until sent`,
      }),
      backoff: { firstMs: 5_000, longestMs: 10 * 60_000 },
      pollMs: NOTICE_POLL_MS,
      batch: 50,
    },
    { audit: deps.audit, log: deps.log, onFailure: deps.onFailure },
  );

  return {
    ...worker,
    enabled: mailer !== undefined,
    /** Forgets the requests whose invoice never came within their lifetime (a timer in the background registry). */
    expireRequests: () => notices.deleteExpired(),
    /** Closes the relay's connections. */
    close: () => mailer?.close(),
  };
}

export type ArrivalNotifier = ReturnType<typeof createArrivalNotifier>;
