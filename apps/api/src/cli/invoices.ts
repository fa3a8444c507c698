import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { withDomain, type Domain } from '../domain.ts';
import { formatSummary, importInvoiceFiles, listImportDir, type ImportItem } from '../invoices/import-files.ts';
import { revalidate } from './revalidate.ts';
import { EXIT, stdio, type CliOutput } from './cli-io.ts';
import { INVOICES_USAGE, usageOf } from './usage.ts';

const USAGE = usageOf(INVOICES_USAGE);

/** `npm run portal -- invoices ...`: ok when every file is in, refused when any failed, usage (cli-io.ts). */
export async function run(args: string[]): Promise<number> {
  return withDomain(loadConfig(), (domain) => runWith(domain, args));
}

/** The command against a domain the caller built; tests call this with their own app's domain. */
export async function runWith(
  domain: Parameters<typeof revalidate>[0] & Pick<Domain, 'ingestInvoice'>,
  args: string[],
  output: CliOutput = stdio,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { 'parcel-code': { type: 'string' }, 'batch-size': { type: 'string' } },
    });
  } catch (error) {
    output.err(`${(error as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const [command, target, ...extra] = parsed.positionals;
  const parcelCode = parsed.values['parcel-code'];
  const batchSize = parsed.values['batch-size'];
  if (command === 'revalidate' && !target && parcelCode === undefined) {
    return revalidate(domain, { batchSize, actor: `cli:${os.userInfo().username}` }, output);
  }
  if (batchSize !== undefined) {
    output.err(`--batch-size is for invoices revalidate.\n${USAGE}`);
    return EXIT.usage;
  }
  let items: ImportItem[];
  if (command === 'import' && target && !extra.length && parcelCode !== undefined) {
    items = [{ file: target, parcelCode }];
  } else if (command === 'import-dir' && target && !extra.length && parcelCode === undefined) {
    const listing = await listImportDir(target).catch((error: Error) => error);
    if (listing instanceof Error) {
      output.err(`Cannot read ${target}: ${listing.message}`);
      return EXIT.noInput;
    }
    if (listing.ignored.length)
      output.out(`ignoring ${listing.ignored.length} entries that are not <parcel code>.pdf or .xml files`);
    items = listing.items;
  } else {
    output.err(USAGE);
    return EXIT.usage;
  }

  const summary = await importInvoiceFiles(domain.ingestInvoice, items, `cli:${os.userInfo().username}`, output.out);
  for (const line of formatSummary(summary)) output.out(line);
  return summary.failed.length ? EXIT.refused : EXIT.ok;
}
