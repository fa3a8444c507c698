import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { withDomain, type Domain } from '../domain.ts';
import { formatSummary, importInvoiceFiles, listImportDir, type ImportItem } from '../invoices/import-files.ts';

const USAGE = `Usage:
  npm run portal -- invoices import <file.pdf|file.xml> --parcel-code <code>
  npm run portal -- invoices import-dir <dir>     (each <parcel code>.pdf or .xml in the folder)
`;

export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

const stdio: CliOutput = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

/** `npm run portal -- invoices ...`: exit 0 when every file is in, 1 when any failed, 64 on a usage error. */
export async function run(args: string[]): Promise<number> {
  return withDomain(loadConfig(), (domain) => runWith(domain, args));
}

/** The command against a domain the caller built; tests call this with their own app's domain. */
export async function runWith(
  domain: Pick<Domain, 'ingestInvoice'>,
  args: string[],
  output: CliOutput = stdio,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { 'parcel-code': { type: 'string' } } });
  } catch (error) {
    output.err(`${(error as Error).message}\n${USAGE}`);
    return 64;
  }
  const [command, target, ...extra] = parsed.positionals;
  const parcelCode = parsed.values['parcel-code'];
  let items: ImportItem[];
  if (command === 'import' && target && !extra.length && parcelCode !== undefined) {
    items = [{ file: target, parcelCode }];
  } else if (command === 'import-dir' && target && !extra.length && parcelCode === undefined) {
    const listing = await listImportDir(target).catch((error: Error) => error);
    if (listing instanceof Error) {
      output.err(`Cannot read ${target}: ${listing.message}`);
      return 66;
    }
    if (listing.ignored.length)
      output.out(`ignoring ${listing.ignored.length} entries that are not <parcel code>.pdf or .xml files`);
    items = listing.items;
  } else {
    output.err(USAGE);
    return 64;
  }

  const summary = await importInvoiceFiles(domain.ingestInvoice, items, `cli:${os.userInfo().username}`, output.out);
  for (const line of formatSummary(summary)) output.out(line);
  return summary.failed.length ? 1 : 0;
}
