import type { AuditTrail } from '../audit/audit-trail.ts';
import type { InvoicesRepository } from '../invoices/repository.ts';
import { whyNotInvoiceReader } from '../users/invoice-reader.ts';
import type { UsersRepository } from '../users/repository.ts';
import type { ArrivalNoticeRow, ArrivalNoticesRepository } from './arrival-notices.ts';
import type { Mailer } from './mailer.ts';

/** How often the queue is looked at when nothing woke it: mail for an import by another process, retries. */
export const NOTICE_POLL_MS = 5_000;
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 10 * 60_000;
/** Sent per round at most; a round stops at the first failure, since the relay is then likely down. */
const BATCH = 50;

export const retryDelayMs = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);

/** The first failure is audited, then the 2nd, 4th, 8th…: an outage of hours adds a dozen entries, not thousands. */
const auditsFailure = (attempts: number) => (attempts & (attempts - 1)) === 0;

export interface ArrivalNotifierDeps {
  notices: ArrivalNoticesRepository;
  mailer: Mailer | undefined;
  users: Pick<UsersRepository, 'findByEmail'>;
  invoices: Pick<InvoicesRepository, 'findByParcelCode'>;
  audit: Pick<AuditTrail, 'bestEffort'>;
  productName: string;
  log: { warn(details: object, message: string): void };
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
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> = Promise.resolve();
  let running = false;
  let again = false;

  async function attempt(job: ArrivalNoticeRow): Promise<'sent' | 'dropped' | 'pending'> {
    const event = { actor: job.userEmail, action: 'invoice.arrival-notice' as const, target: job.parcelCode };
    const [user, invoice] = await Promise.all([
      deps.users.findByEmail(job.userEmail),
      deps.invoices.findByParcelCode(job.parcelCode),
    ]);
    const notReader = whyNotInvoiceReader(user);
    if (notReader !== undefined || !invoice) {
      await notices.complete(job.id);
      const why =
        notReader !== undefined ? `the person may not open invoices (${notReader})` : 'the parcel has no invoice';
      await deps.audit.bestEffort({ ...event, outcome: 'refused', detail: `not sent: ${why}` });
      return 'dropped';
    }
    if (!mailer) return 'pending';
    try {
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
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delayMs = retryDelayMs(job.attempts);
      await notices.retryLater(job.id, { error: message, delayMs }).catch((retryError: unknown) => {
        // The lease runs out by itself and the job is taken up again.
        deps.log.warn({ err: retryError }, 'could not reschedule an arrival notice');
      });
      if (auditsFailure(job.attempts)) {
        await deps.audit.bestEffort({
          ...event,
          outcome: 'failed',
          detail: `mail not sent yet (attempt ${job.attempts}): ${message}; retried in ${Math.round(delayMs / 1000)} s and until sent`,
        });
      }
      return 'pending';
    }
    await notices.complete(job.id);
    const tries = job.attempts > 1 ? ` (attempt ${job.attempts})` : '';
    await deps.audit.bestEffort({ ...event, outcome: 'ok', detail: `mail sent${tries}` });
    return 'sent';
  }

  async function runDue() {
    const outcome = { sent: 0, dropped: 0, pending: 0 };
    for (let i = 0; i < BATCH && outcome.pending === 0; i++) {
      const job = await notices.takeDue();
      if (!job) break;
      outcome[await attempt(job)]++;
    }
    return outcome;
  }

  function poll(): Promise<unknown> {
    if (running) {
      // Woken while a round runs: one more round after it, for what was marked meanwhile.
      again = true;
      return round;
    }
    running = true;
    round = (async () => {
      do {
        again = false;
        await runDue();
      } while (again);
    })()
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not send the arrival notices'))
      .finally(() => (running = false));
    return round;
  }

  const sweep = () =>
    notices
      .deleteExpired()
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not expire arrival notices'));

  return {
    enabled: mailer !== undefined,
    runDue,
    /** Called after this process stored a version: its mail goes now, not at the next poll. */
    wake() {
      if (timer) void poll();
    },
    start() {
      if (timer || !mailer) return;
      let polls = 0;
      timer = setInterval(() => {
        // The expired requests once a minute or so; mail every poll.
        if (polls++ % 12 === 0) void sweep();
        void poll();
      }, NOTICE_POLL_MS);
      timer.unref();
      void poll();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await round;
      mailer?.close();
    },
  };
}

export type ArrivalNotifier = ReturnType<typeof createArrivalNotifier>;
