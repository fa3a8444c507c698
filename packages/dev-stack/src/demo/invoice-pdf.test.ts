import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { PDFDocument } from '@cantoo/pdf-lib';
import { renderDemoInvoicePdf } from './invoice-pdf.ts';

/**
 * The text drawn on the page, from pdf-lib's own output format: Flate-compressed content streams
 * holding `<hex> Tj` operators in WinAnsi. Good enough to find ASCII strings without poppler.
 */
function shownText(pdf: Uint8Array): string {
  const raw = Buffer.from(pdf).toString('latin1');
  const shown: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(Buffer.from(raw.slice(start, end), 'latin1')).toString('latin1');
    } catch {
      continue; // not a Flate stream
    }
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      shown.push(Buffer.from(hex ?? '', 'hex').toString('latin1'));
    }
  }
  return shown.join('\n');
}

describe('renderDemoInvoicePdf', () => {
  it('produces a single A4 page PDF', async () => {
    const pdf = await renderDemoInvoicePdf('DEMO000001');
    assert.equal(Buffer.from(pdf.subarray(0, 5)).toString('latin1'), '%PDF-');
    const doc = await PDFDocument.load(pdf);
    assert.equal(doc.getPageCount(), 1);
    const { width, height } = doc.getPage(0).getSize();
    assert.deepEqual([Math.round(width), Math.round(height)], [595, 842]);
  });

  it('shows the parcel code and the invoice essentials', async () => {
    const text = shownText(await renderDemoInvoicePdf('DEMO000002'));
    for (const expected of ['DEMO000002', 'INVOICE', 'Northwind Parcel Ltd', 'Total due (GBP)', 'VAT (20%)']) {
      assert.ok(text.includes(expected), `missing ${expected}`);
    }
  });

  it('shows the parcel code to a real text extractor', async () => {
    const pdf = await renderDemoInvoicePdf('DEMO000003');
    const result = spawnSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'latin1' });
    assert.equal(
      result.error,
      undefined,
      'pdftotext is needed: poppler-utils, which scripts/setup-machine.sh installs',
    );
    assert.equal(result.status, 0);
    assert.match(result.stdout, /DEMO000003/);
  });

  it('is byte-identical for the same code and variant', async () => {
    const first = await renderDemoInvoicePdf('DEMO000001', 2);
    const second = await renderDemoInvoicePdf('DEMO000001', 2);
    assert.deepEqual(Buffer.from(first), Buffer.from(second));
    assert.deepEqual(
      Buffer.from(await renderDemoInvoicePdf('DEMO000001')),
      Buffer.from(await renderDemoInvoicePdf('DEMO000001', 0)),
    );
  });

  it('differs between parcel codes and between variants', async () => {
    const bodies = await Promise.all([
      renderDemoInvoicePdf('DEMO000001'),
      renderDemoInvoicePdf('DEMO000002'),
      renderDemoInvoicePdf('DEMO000003'),
      renderDemoInvoicePdf('DEMO000001', 1),
    ]);
    const distinct = new Set(bodies.map((body) => Buffer.from(body).toString('base64')));
    assert.equal(distinct.size, bodies.length);
    // Different addresses and items, not merely a different code in the same layout.
    const texts = bodies.slice(0, 3).map((body) => shownText(body).replace(/DEMO00000\d/g, ''));
    assert.equal(new Set(texts).size, 3);
  });

  it('stays under 20 KB', async () => {
    for (const code of ['DEMO000001', 'DEMO000002', 'DEMO000003']) {
      assert.ok((await renderDemoInvoicePdf(code)).length < 20 * 1024);
    }
  });

  it('renders codes that Helvetica cannot show or that are too long for the panel', async () => {
    const pdf = await renderDemoInvoicePdf(`ÜBER-√-\u{1F4E6}-${'X'.repeat(200)}`);
    assert.equal((await PDFDocument.load(pdf)).getPageCount(), 1);
  });

  it('refuses a variant that is not a non-negative integer', async () => {
    for (const variant of [-1, 1.5, Number.NaN]) {
      await assert.rejects(renderDemoInvoicePdf('DEMO000001', variant), RangeError);
    }
  });
});
