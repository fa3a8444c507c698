import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { invoiceVersionsOf } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { RULES_VERSION } from '../invoices/e-invoice/validation/rules/index.ts';
import { countDue, revalidateStoredVersions } from '../invoices/revalidation.ts';
import { runWith } from './invoices.ts';

/** A public XRechnung UBL invoice whose amount due no longer follows from its totals (BR-CO-16). */
async function invalidInvoice(): Promise<Buffer> {
  const xml = (await readEInvoiceFixture('xrechnung-ubl.xml')).toString('utf8');
  return Buffer.from(xml.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, '$1999999.99'));
}

const OLD_EDITION = 'en16931-0.9';

describe('CLI: invoices revalidate', () => {
  const t = useTestApp({ env: { INVOICE_READ_TIMEOUT_MS: '120000' } });

  async function cli(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runWith(t.domain, ['revalidate', ...args], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out, err };
  }

  const ingest = async (parcelCode: string, body: Uint8Array) =>
    t.domain.ingestInvoice({ parcelCode, body, uploadedBy: 'service' });

  /**
   * What an earlier edition of the rules left behind: every report made by OLD_EDITION, the invalid
   * invoice's found valid (as if BR-CO-16 had not been written), and one version with no report at all
   * (stored before the check).
   */
  async function storeAsAnEarlierEditionDid() {
    await ingest('OK-1', await readEInvoiceFixture('xrechnung-ubl.xml'));
    await ingest('BAD-2', await invalidInvoice());
    await ingest('FX-3', await readEInvoiceFixture('facturx-en16931.pdf'));
    await ingest('CII-4', await readEInvoiceFixture('xrechnung-cii.xml'));
    await ingest('PDF-5', await readEInvoiceFixture('plain.pdf'));
    const earlier = {
      status: 'valid',
      rulesVersion: OLD_EDITION,
      findings: [],
      omittedFindings: 0,
    };
    for (const table of ['invoice_versions', 'invoices']) {
      await t.database.db.execute(
        sql`update ${sql.identifier(table)} set facts = jsonb_set(facts, '{validation}', ${JSON.stringify(earlier)}::jsonb) where facts ? 'validation'`,
      );
      await t.database.db.execute(
        sql`update ${sql.identifier(table)} set facts = facts - 'validation' where parcel_code = 'CII-4'`,
      );
    }
  }

  const factsOf = async (parcelCode: string) => (await t.domain.invoices.findByParcelCode(parcelCode))?.facts;

  it('checks every version an earlier edition checked (or none did), in batches, stores each report, and changes nothing when run again', async () => {
    await storeAsAnEarlierEditionDid();
    assert.equal(await countDue(t.database.db), 4);

    const first = await cli('--batch-size', '3');
    assert.equal(first.code, 0, [...first.out, ...first.err].join('\n'));
    assert.ok(
      first.out.includes('4 stored e-invoice versions to validate again, in batches of 3.'),
      first.out.join('\n'),
    );
    assert.deepEqual(
      first.out.filter((line) => line.startsWith('[')),
      [`[3/4] rules ${RULES_VERSION}`, `[4/4] rules ${RULES_VERSION}`],
    );
    assert.ok(
      first.out.includes(
        `validated 4 with rules ${RULES_VERSION}: 3 valid, 0 with warnings, 1 invalid; 1 changed outcome; failed 0`,
      ),
      first.out.join('\n'),
    );

    // The current invoice's facts and its version's both carry the new report, naming the present rules.
    const bad = await factsOf('BAD-2');
    assert.equal(bad?.validation?.status, 'invalid');
    assert.equal(bad?.validation?.rulesVersion, RULES_VERSION);
    assert.ok(bad?.validation?.findings.some((finding) => finding.rule === 'BR-CO-16'));
    const [badVersion] = await invoiceVersionsOf(t.database, 'BAD-2');
    assert.deepEqual(badVersion?.facts?.validation, bad?.validation);
    assert.equal((await factsOf('CII-4'))?.validation?.rulesVersion, RULES_VERSION);
    assert.equal((await factsOf('FX-3'))?.validation?.status, 'valid');
    // The rest of the facts is untouched; a plain PDF gets no report.
    assert.equal(bad?.amountDue, '999999.99');
    assert.equal(await factsOf('PDF-5'), null);

    // The change of outcome is in the audit log under the invoice, and the run as a whole.
    await t.domain.auditWriter.flush();
    const audit = await t.domain.audit.list({ limit: 20, offset: 0 });
    const revalidations = audit.filter((row) => row.action === 'invoice.revalidate');
    assert.deepEqual(
      revalidations.map((row) => [row.target, row.outcome]),
      [
        ['stored e-invoices', 'ok'],
        ['BAD-2', 'ok'],
      ],
    );
    assert.match(revalidations[1]!.detail ?? '', new RegExp(`version ${badVersion!.id}: valid -> invalid`));

    const second = await cli();
    assert.equal(second.code, 0);
    assert.deepEqual(second.out, [
      'Every stored e-invoice version is checked by the present rules already: nothing to do.',
    ]);
    assert.deepEqual((await invoiceVersionsOf(t.database, 'BAD-2'))[0]?.facts, badVersion?.facts);
  });

  it('is resumable: a run cut off after a batch is finished by the next, which checks only the rest', async () => {
    await storeAsAnEarlierEditionDid();
    const deps = {
      db: t.database.db,
      blobStore: t.domain.blobStore,
      readInvoice: t.domain.invoiceReaders.read,
      audit: t.domain.auditTrail,
      maxBytes: t.domain.config.maxInvoiceBytes,
    };
    const cutOff = new Error('the operator pressed Ctrl-C');
    await assert.rejects(
      revalidateStoredVersions(deps, {
        batchSize: 1,
        actor: 'cli:test',
        onBatch: () => {
          throw cutOff;
        },
      }),
      cutOff,
    );
    assert.equal(await countDue(t.database.db), 3);
    const rest = await revalidateStoredVersions(deps, { batchSize: 1, actor: 'cli:test' });
    assert.equal(rest.checked, 3);
    assert.equal(await countDue(t.database.db), 0);
  });

  it('names a version whose XML cannot be read again, finishes the others, and exits 1', async () => {
    await storeAsAnEarlierEditionDid();
    const [gone] = await invoiceVersionsOf(t.database, 'OK-1');
    await t.database.db.execute(sql`update invoice_versions set xml_sha256 = ${'0'.repeat(64)} where id = ${gone!.id}`);
    const run = await cli();
    assert.equal(run.code, 1);
    assert.ok(
      run.out.some((line) => line.startsWith(`OK-1 version ${gone!.id}: not validated again: its XML (`)),
      run.out.join('\n'),
    );
    assert.ok(run.out.at(-1)?.endsWith('failed 1'), run.out.join('\n'));
    assert.equal(await countDue(t.database.db), 1);
  });

  it('makes no report when the operator keeps none (EINVOICE_INVALID=accept)', async () => {
    await storeAsAnEarlierEditionDid();
    const out: string[] = [];
    const accepting = { ...t.domain, config: { ...t.domain.config, eInvoiceInvalid: 'accept' as const } };
    const code = await runWith(accepting, ['revalidate'], { out: (line) => out.push(line), err: () => {} });
    assert.equal(code, 0);
    assert.match(out.join('\n'), /EINVOICE_INVALID=accept: the portal keeps no EN 16931 reports/);
    assert.equal(await countDue(t.database.db), 4);
  });

  for (const args of [['--batch-size', '0'], ['--batch-size', 'many'], ['extra']]) {
    it(`answers a usage error (64) to: revalidate ${args.join(' ')}`, async () => {
      const result = await cli(...args);
      assert.equal(result.code, 64);
      assert.match(result.err.join('\n'), /Usage/);
    });
  }
});
