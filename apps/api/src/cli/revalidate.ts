import type { Domain } from '../domain.ts';
import { countDue, revalidateStoredVersions } from '../invoices/revalidation.ts';
import { EXIT, type CliOutput } from './cli-io.ts';
import { INVOICES_USAGE, usageOf } from './usage.ts';

const DEFAULT_BATCH_SIZE = 100;
const MAX_BATCH_SIZE = 10_000;

/**
 * `invoices revalidate`: the stored e-invoice versions the present EN 16931 rules have not checked, checked
 * again through the reader pool and their reports stored. Ok when every one is done (or none was due), refused
 * when any could not be read again (named, left as it was: running again retries them).
 */
export async function revalidate(
  domain: Pick<Domain, 'config' | 'database' | 'blobStore' | 'invoiceReaders' | 'auditTrail'>,
  options: { batchSize: string | undefined; actor: string },
  output: CliOutput,
): Promise<number> {
  const batchSize = options.batchSize === undefined ? DEFAULT_BATCH_SIZE : Number(options.batchSize);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    output.err(`--batch-size is a whole number from 1 to ${MAX_BATCH_SIZE}.\n${usageOf(INVOICES_USAGE)}`);
    return EXIT.usage;
  }
  if (domain.config.eInvoiceInvalid === 'accept') {
    output.out(
      'EINVOICE_INVALID=accept: the portal keeps no EN 16931 reports, so none is made again. ' +
        'Set it to flag (or refuse) to keep them.',
    );
    return EXIT.ok;
  }
  const { db } = domain.database;
  const due = await countDue(db);
  if (due === 0) {
    output.out('Every stored e-invoice version is checked by the present rules already: nothing to do.');
    return EXIT.ok;
  }
  output.out(`${due} stored e-invoice versions to validate again, in batches of ${batchSize}.`);
  const summary = await revalidateStoredVersions(
    {
      db,
      blobStore: domain.blobStore,
      readInvoice: domain.invoiceReaders.read,
      audit: domain.auditTrail,
      maxBytes: domain.config.maxInvoiceBytes,
    },
    {
      batchSize,
      actor: options.actor,
      onBatch: (progress) =>
        output.out(`[${progress.checked + progress.failed}/${progress.due}] rules ${progress.rulesVersion}`),
      onFailure: ({ parcelCode, versionId, reason }) =>
        output.out(`${parcelCode} version ${versionId}: not validated again: ${reason}`),
    },
  );
  const { byStatus } = summary;
  output.out(
    `validated ${summary.checked} with rules ${summary.rulesVersion}: ${byStatus.valid} valid, ` +
      `${byStatus.warnings} with warnings, ${byStatus.invalid} invalid; ${summary.statusChanged} changed outcome; ` +
      `failed ${summary.failed}`,
  );
  return summary.failed > 0 ? EXIT.refused : EXIT.ok;
}
