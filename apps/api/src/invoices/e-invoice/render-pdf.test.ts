import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { documentTypeName } from '@portal/contract/invoice-codes';
import { readInvoice } from './read-invoice.ts';
import { moneyText } from './money-text.ts';
import { britishDate, renderEInvoicePdf } from './render-pdf.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

// PDF.js reads the metrics of Helvetica, which the rendering uses, from its own font folder.
const STANDARD_FONTS = `${path.dirname(fileURLToPath(import.meta.resolve('pdfjs-dist/package.json')))}/standard_fonts/`;

const fixture = readEInvoiceFixture;

/** The text of every page, as a PDF reader (PDF.js, the web app's) extracts it. */
async function textOf(pdf: Uint8Array): Promise<string[]> {
  const task = getDocument({ data: pdf.slice(), standardFontDataUrl: STANDARD_FONTS });
  const document = await task.promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await task.destroy();
  return pages;
}

describe('renderEInvoicePdf', () => {
  for (const file of ['cii-en16931-three-rates.xml', 'xrechnung-ubl.xml', 'peppol-credit-note.xml']) {
    it(`renders ${file} readably, labelled as a rendering of the XML`, async () => {
      const read = await readInvoice(await fixture(file));
      const content = read.content!;
      const pdf = await renderEInvoicePdf(content, { parcelCode: 'PARCEL-1', profileName: read.profileName });
      const pages = await textOf(pdf);
      const text = pages.join('\n');
      assert.match(pages[0]!, /Rendering of an XML e-invoice/);
      for (const [index, page] of pages.entries()) {
        assert.match(page, new RegExp(`page ${index + 1} of ${pages.length}`), 'every page says it is a rendering');
      }
      const { facts } = content;
      for (const value of [facts.invoiceNumber, facts.sellerName, facts.buyerName, facts.iban]) {
        assert.ok(value && text.includes(value), `${value} is shown`);
      }
      const due = moneyText(facts.amountDue, facts.currency).replace(/\s/g, ' ');
      assert.ok(text.includes(due), `the amount due is shown as money: ${due}`);
      assert.ok(!text.includes(`${facts.amountDue} ${facts.currency}`), 'not as a number and a code');
      assert.ok(text.includes(britishDate(facts.issueDate)), 'the issue date is shown');
      for (const line of content.lines)
        assert.ok(line.name && text.includes(line.name), `line "${line.name}" is shown`);
    });
  }

  it('says "Credit note" for a credit note', async () => {
    const read = await readInvoice(await fixture('peppol-credit-note.xml'));
    const [first] = await textOf(await renderEInvoicePdf(read.content!, { parcelCode: 'P', profileName: null }));
    assert.match(first!, /Credit note/);
  });

  it('names every document type as the facts panel does: one table in the contract', async () => {
    const read = await readInvoice(await fixture('xrechnung-ubl.xml'));
    for (const typeCode of ['261', '381', '380', 'unknown']) {
      const content = { ...read.content!, facts: { ...read.content!.facts, typeCode } };
      const [first] = await textOf(await renderEInvoicePdf(content, { parcelCode: 'P', profileName: null }));
      assert.ok(first!.includes(documentTypeName(typeCode)), `${typeCode}: ${first!.slice(0, 80)}`);
      assert.equal(/credit note/i.test(first!), typeCode === '261' || typeCode === '381', typeCode);
    }
    assert.equal(documentTypeName('261'), 'Self-billed credit note');
  });

  it('makes the same bytes from the same XML, so a re-import stores nothing new', async () => {
    const read = await readInvoice(await fixture('xrechnung-cii.xml'));
    const options = { parcelCode: 'P', profileName: read.profileName };
    const [first, second] = [
      await renderEInvoicePdf(read.content!, options),
      await renderEInvoicePdf(read.content!, options),
    ];
    assert.deepEqual(Buffer.from(first), Buffer.from(second));
  });

  it('runs onto more pages for a long invoice, and shows text the standard fonts lack as "?"', async () => {
    const read = await readInvoice(await fixture('xrechnung-ubl.xml'));
    const line = read.content!.lines[0]!;
    const lines = Array.from({ length: 120 }, (_, index) => ({
      ...line,
      id: String(index + 1),
      name: `Zustellung \u4e2d ${index + 1}`,
    }));
    const pages = await textOf(
      await renderEInvoicePdf({ ...read.content!, lines }, { parcelCode: 'P', profileName: null }),
    );
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    assert.match(pages.join(' '), /Zustellung \? 120/);
  });

  it('puts a long line id under its description and names units as UN/ECE Recommendation 20 does', async () => {
    const read = await readInvoice(await fixture('xrechnung-ubl.xml'));
    const line = read.content!.lines[0]!;
    const lines = [
      { ...line, id: 'LINE-000001', name: 'Freight Hamburg to Oslo', quantity: '3', unitCode: 'XPP' },
      { ...line, id: '2', name: 'Storage', quantity: '7', unitCode: 'DAY' },
      { ...line, id: '3', name: 'Handling', quantity: '2', unitCode: 'C62' },
      { ...line, id: '4', name: 'Special', quantity: '1', unitCode: 'QQQ' },
    ];
    const [page] = await textOf(
      await renderEInvoicePdf({ ...read.content!, lines }, { parcelCode: 'P', profileName: null }),
    );
    assert.match(page!, /Freight Hamburg to Oslo\s+Line LINE-000001/);
    assert.match(page!, /\b3 piece\b/);
    assert.doesNotMatch(page!, /XPP/);
    assert.match(page!, /\b7 day\b/);
    assert.match(page!, /Handling\s+2\s/);
    assert.match(page!, /\b1 QQQ\b/);
  });

  it('writes money in the invoice currency as a reader does, every decimal kept, a symbol the fonts lack as its code', async () => {
    const read = await readInvoice(await fixture('xrechnung-ubl.xml'));
    const line = read.content!.lines[0]!;
    const content = {
      ...read.content!,
      facts: { ...read.content!.facts, currency: 'EUR', amountDue: '2388.53', totalGross: '2388.5' },
      lines: [{ ...line, id: '1', name: 'Freight', netPrice: '12.3456', netAmount: '1234.5' }],
    };
    const [page] = await textOf(await renderEInvoicePdf(content, { parcelCode: 'P', profileName: null }));
    assert.match(page!, /Amount due\s+€2,388\.53/);
    assert.match(page!, /Total with VAT\s+€2,388\.50/);
    assert.match(page!, /€12\.3456\s+€1,234\.50/);
    assert.doesNotMatch(page!, /2388\.53 EUR/);
    const rupees = { ...content, facts: { ...content.facts, currency: 'INR' } };
    const [inRupees] = await textOf(await renderEInvoicePdf(rupees, { parcelCode: 'P', profileName: null }));
    assert.match(inRupees!, /Amount due\s+INR\s2,388\.53/);
    assert.doesNotMatch(inRupees!, /\?2,388/);
  });

  it('falls back to the amount and its code for what is not a currency or not a decimal', () => {
    assert.equal(moneyText('12.5', 'NOK').replace(/\s/g, ' '), 'NOK 12.50');
    assert.equal(moneyText('12.5', 'XYZW'), '12.5 XYZW');
    assert.equal(moneyText('1e3', 'EUR'), '1e3 EUR');
    assert.equal(moneyText('-7', 'GBP'), '-£7.00');
    assert.equal(moneyText('12.5', null), '12.5');
    assert.equal(moneyText(null, 'EUR'), '\u2014');
  });

  it('writes dates the British way', () => {
    assert.equal(britishDate('2024-11-05'), '5 Nov 2024');
    assert.equal(britishDate(null), '\u2014');
  });
});
