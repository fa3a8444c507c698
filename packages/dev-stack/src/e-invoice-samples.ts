import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './paths.ts';

/**
 * Public example e-invoices (the standards' example sets, open-source libraries' test files) are other people's
 * work: the project reads them from the shared folder beside the repository, which lists each file's source and
 * licence in its sources.json, and keeps no copy. Only the files its own tests wrote (hostile and malformed XML)
 * live in the repository.
 */
export const E_INVOICE_SAMPLES_DIR = path.resolve(REPO_ROOT, '../shared/e-invoice-samples');
export const OWN_E_INVOICE_FIXTURES_DIR = path.join(REPO_ROOT, 'apps/api/test/fixtures/e-invoices');

/** The folder the public samples are read from, or a clear error saying where it was looked for. */
export function eInvoiceSamplesDir(dir = E_INVOICE_SAMPLES_DIR): string {
  if (!existsSync(path.join(dir, 'sources.json')))
    throw new Error(
      `The public e-invoice samples are read from ../shared/e-invoice-samples beside the repository ` +
        `(${dir}), which is missing or has no sources.json. Put the shared folder there ` +
        `(its sources.json names each sample's repository, commit, path and licence).`,
    );
  return dir;
}

/** Where the e-invoice file `name` is: one the project's tests wrote, else a public sample. */
export function eInvoiceFixturePath(name: string): string {
  const own = path.join(OWN_E_INVOICE_FIXTURES_DIR, name);
  if (existsSync(own)) return own;
  const sample = path.join(eInvoiceSamplesDir(), name);
  if (!existsSync(sample))
    throw new Error(`No e-invoice file "${name}" in ${OWN_E_INVOICE_FIXTURES_DIR} or ${E_INVOICE_SAMPLES_DIR}.`);
  return sample;
}

export const readEInvoiceFixture = (name: string): Promise<Buffer> => readFile(eInvoiceFixturePath(name));
