// `npm run bench:e-invoice`: what reading e-invoices costs. Three parts, figures printed, nothing asserted:
//  1. reading alone (detect, find the attached XML, parse, map, validate; the rendering for XML-only) per sample
//     file; then the EN 16931 validation alone (over the parsed XML) per invoice, over the samples and the 29
//     complete files of the official unit tests (`--validation-only` stops after it);
//  2. the whole ingestion through the domain, as PUT /invoices/:parcelCode and the CLI run it (read, store the
//     original and what is made from it, record the version, audit), on PGlite in a scratch folder, per file of
//     the samples and of the 29 complete files, with the EN 16931 check and without it, side by side;
//  3. the invoice page in Chromium against the real stack: from navigation to the PDF in the frame and to
//     the facts panel, for a plain PDF, a Factur-X PDF and an XML-only invoice (`--no-page` skips it,
//     `--no-build` reuses the last web build).
// Options: BENCH_RUNS (default 20), BENCH_PAGE_RUNS (default 10).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '@portal/api/config.ts';
import { withDomain } from '@portal/api/domain.ts';
import { ingestInvoice, type IngestInput } from '@portal/api/invoices/ingest.ts';
import { readInvoice } from '@portal/api/invoices/e-invoice/read-invoice.ts';
import { renderEInvoicePdf } from '@portal/api/invoices/e-invoice/render-pdf.ts';
import { validateInvoiceXml } from '@portal/api/invoices/e-invoice/validation/validate.ts';
import { decodeXmlBytes, parseXml } from '@portal/api/invoices/e-invoice/xml-tree.ts';
import {
  buildWeb,
  CHROMIUM_ARGS,
  chromiumExecutable,
  demoAccount,
  findFreePort,
  identityToolkit,
  startStack,
} from '@portal/dev-stack';
import { createSoftwareAuthenticator, enrollPasskey, httpPortalSession } from '@portal/dev-stack/passkeys';
import { eInvoiceSamplesDir } from '@portal/dev-stack/e-invoice-samples';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 10);
const SAMPLES = eInvoiceSamplesDir();
const log = (line = '') => process.stdout.write(`${line}\n`);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
const pair = (values: number[]) => `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.95))}`;

async function time(runs: number, run: (index: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  await run(-1); // warm-up: the first call compiles the code paths
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await run(index);
    times.push(performance.now() - started);
  }
  return times;
}

// The public samples only: the project's hostile and malformed files are not invoices to time.
const files = (await readdir(SAMPLES)).filter((name) => /\.(pdf|xml)$/.test(name));
const samples = await Promise.all(
  files.sort().map(async (name) => ({ name, bytes: await readFile(path.join(SAMPLES, name)) })),
);

log(`# 1. Reading (and rendering XML-only), ${RUNS} runs each, median / p95`);
for (const { name, bytes } of samples) {
  const read = await readInvoice(bytes);
  const reading = await time(RUNS, () => readInvoice(bytes));
  let line = `${name.padEnd(40)} ${read.format.padEnd(8)} ${String(bytes.length).padStart(7)} B  read ${ms(quantile(reading, 0.5))} / ${ms(quantile(reading, 0.95))}`;
  if (read.content && read.format !== 'facturx') {
    const content = read.content;
    const rendering = await time(RUNS, () =>
      renderEInvoicePdf(content, { parcelCode: 'BENCH', profileName: read.profileName }),
    );
    line += `  render ${ms(quantile(rendering, 0.5))} / ${ms(quantile(rendering, 0.95))}`;
  }
  log(line);
}

log();
log(`# 1b. EN 16931 validation alone (the XML already parsed), ${RUNS} runs each, median / p95`);
// The official unit tests' complete files (EUPL-1.2) are read from the shared folder, like the samples.
const COMPLETE_FILES = path.resolve(import.meta.dirname, '../../shared/en16931-tests/test/testfiles');
const completeFiles = await Promise.all(
  (await readdir(COMPLETE_FILES))
    .filter((file) => file.endsWith('.xml'))
    .sort()
    .map(async (name) => ({ name, bytes: await readFile(path.join(COMPLETE_FILES, name)) })),
);
const validated: { name: string; xml: Uint8Array }[] = [];
for (const { name, bytes } of samples) {
  const read = await readInvoice(bytes);
  if (read.xml) validated.push({ name, xml: read.xml });
}
for (const { name, bytes } of completeFiles) validated.push({ name, xml: bytes });
const allValidations: number[] = [];
const allParses: number[] = [];
for (const { name, xml } of validated) {
  const text = decodeXmlBytes(xml);
  const root = parseXml(text);
  const parsing = await time(RUNS, async () => parseXml(text));
  const validating = await time(RUNS, async () => validateInvoiceXml(root));
  allParses.push(...parsing);
  allValidations.push(...validating);
  const status = validateInvoiceXml(root)?.status ?? '-';
  log(
    `${name.slice(0, 40).padEnd(40)} ${status.padEnd(8)} ${String(xml.length).padStart(7)} B  parse ${ms(quantile(parsing, 0.5))} / ${ms(quantile(parsing, 0.95))}  validate ${ms(quantile(validating, 0.5))} / ${ms(quantile(validating, 0.95))}`,
  );
}
log(
  `all ${validated.length} invoices, ${allValidations.length} runs: validate ${ms(quantile(allValidations, 0.5))} / ${ms(quantile(allValidations, 0.95))}  (parse ${ms(quantile(allParses, 0.5))} / ${ms(quantile(allParses, 0.95))})`,
);
if (process.argv.includes('--validation-only')) process.exit(0);

log();
log(
  `# 2. Whole ingestion through the domain on PGlite, ${RUNS} new versions per file with the EN 16931 check and ${RUNS} without, taken in turn, median / p95`,
);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-einvoice-'));
try {
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    FIREBASE_PROJECT_ID: 'demo-bench',
    // Never called: ingestion asks nothing of the identity provider.
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
    LOG_LEVEL: 'silent',
    // Each run is one upload after another: the budget is the production one, only a slow machine's wait is not.
    INVOICE_READ_TIMEOUT_MS: '120000',
  });
  await withDomain(config, async (domain) => {
    // The domain's own ingestion, once as it runs (the check inside the reader process) and once with the check
    // left out: the same reader pool, store and database, so the difference is what the check adds.
    const ingestWith = (validate: boolean) => (input: IngestInput) =>
      ingestInvoice(
        {
          blobStore: domain.blobStore,
          invoicesRepository: domain.invoices,
          audit: domain.auditTrail,
          maxBytes: config.maxInvoiceBytes,
          readInvoice: (bytes, limits) =>
            domain.invoiceReaders.read(bytes, validate ? limits : { ...limits, skipValidation: true }),
          ingestSlots: domain.ingestSlots,
          invalidEInvoices: 'flag',
        },
        input,
      );
    const ingest = { with: ingestWith(true), without: ingestWith(false) };
    const corpora = [
      { name: 'public samples', files: samples },
      { name: 'complete test files', files: completeFiles },
    ];
    const all = { with: [] as number[], without: [] as number[] };
    const header = `${'file'.padEnd(40)} ${'format'.padEnd(8)}    with check: p50 / p95       without: p50 / p95`;
    for (const corpus of corpora) {
      const times = { with: [] as number[], without: [] as number[] };
      log();
      log(`## ${corpus.name} (${corpus.files.length})`);
      log(header);
      for (const { name, bytes } of corpus.files) {
        const stem = name.replace(/\W+/g, '-').slice(0, 40);
        const format = (await readInvoice(bytes)).format;
        const file = { with: [] as number[], without: [] as number[] };
        // Warm-up of both, then in turn (which goes first alternates), so a busy moment falls on both sides.
        for (let index = -1; index < RUNS; index += 1) {
          const order = index % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
          for (const side of order) {
            const started = performance.now();
            await ingest[side]({ parcelCode: `${side}-${stem}-${index + 2}`, body: bytes, uploadedBy: 'bench' });
            if (index >= 0) file[side].push(performance.now() - started);
          }
        }
        times.with.push(...file.with);
        times.without.push(...file.without);
        log(`${name.slice(0, 40).padEnd(40)} ${format.padEnd(8)} ${pair(file.with)}    ${pair(file.without)}`);
      }
      log(`${`all ${corpus.name}`.padEnd(49)} ${pair(times.with)}    ${pair(times.without)}`);
      all.with.push(...times.with);
      all.without.push(...times.without);
    }
    log();
    log(`## Ingestion, all ${all.with.length} of each side`);
    log(`with the EN 16931 check     p50 ${ms(quantile(all.with, 0.5))}   p95 ${ms(quantile(all.with, 0.95))}`);
    log(`without it                  p50 ${ms(quantile(all.without, 0.5))}   p95 ${ms(quantile(all.without, 0.95))}`);
    log(
      `the check adds              p50 ${ms(quantile(all.with, 0.5) - quantile(all.without, 0.5))}   p95 ${ms(quantile(all.with, 0.95) - quantile(all.without, 0.95))}`,
    );
  });
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

if (!process.argv.includes('--no-page')) await benchPage();

async function benchPage() {
  log();
  log(`# 3. The invoice page in Chromium (1366x768, signed in), ${PAGE_RUNS} loads each, median / p95`);
  if (!process.argv.includes('--no-build')) buildWeb();
  const pageDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-einvoice-page-'));
  const stack = await startStack({
    port: await findFreePort(),
    emulatorPort: await findFreePort(),
    dataDir: pageDir,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_DOWNLOADS_PER_HOUR: '100000' },
    log: () => {},
  });
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
  try {
    const admin = demoAccount('admin@example.com');
    const { idToken } = await identityToolkit(stack.emulator.url).signIn(admin.email, admin.password!);
    // Storing an invoice is an admin call: the sign-in confirms with a passkey first, as in the browser.
    const session = httpPortalSession(stack.url, idToken);
    const enrollmentCode = stack.demoAdminEnrollment?.code;
    await enrollPasskey(session.call, createSoftwareAuthenticator({ origin: stack.url }), { enrollmentCode });
    const put = async (code: string, file: string, type: string) => {
      const response = await fetch(`${stack.url}/api/invoices/${code}`, {
        method: 'PUT',
        headers: { ...session.headers(), 'content-type': type },
        body: new Uint8Array(await readFile(path.join(SAMPLES, file))),
      });
      if (!response.ok) throw new Error(`could not store ${file}: ${response.status}`);
    };
    await put('BENCH-FX', 'facturx-en16931.pdf', 'application/pdf');
    await put('BENCH-XML', 'xrechnung-ubl.xml', 'application/xml');
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const user = demoAccount('user@example.com');
    await page.goto(`${stack.url}/login`);
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password').fill(user.password!);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText(user.email).waitFor();

    for (const [label, code, panel] of [
      ['plain PDF (no panel)', 'DEMO000001', false],
      ['Factur-X PDF + panel', 'BENCH-FX', true],
      ['XML-only (rendering) + panel', 'BENCH-XML', true],
    ] as const) {
      const toFrame: number[] = [];
      const toPanel: number[] = [];
      for (let index = -1; index < PAGE_RUNS; index += 1) {
        const started = performance.now();
        await page.goto(`${stack.url}/invoice?parcelCode=${code}`);
        await page.locator(`iframe[title="${code}"][src^="blob:"]`).waitFor();
        const frameMs = performance.now() - started;
        let panelMs = NaN;
        if (panel) {
          await page.getByRole('complementary').waitFor();
          panelMs = performance.now() - started;
        }
        if (index < 0) continue; // warm-up load
        toFrame.push(frameMs);
        toPanel.push(panelMs);
      }
      const panelText = panel ? `  panel ${ms(quantile(toPanel, 0.5))} / ${ms(quantile(toPanel, 0.95))}` : '';
      log(`${label.padEnd(32)} frame ${ms(quantile(toFrame, 0.5))} / ${ms(quantile(toFrame, 0.95))}${panelText}`);
    }
  } finally {
    await browser.close();
    await stack.stop();
    await rm(pageDir, { recursive: true, force: true });
  }
}
