import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { readInvoice } from '../read-invoice.ts';
import { parseXml } from '../xml-tree.ts';
import { MAX_STORED_FINDINGS, validateInvoiceXml } from './validate.ts';

const UBL_HEAD =
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">';
const CII_HEAD =
  '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"><rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeSettlement>';
const CII_TAIL = '</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>';

const rulesFired = (xml: string) => validateInvoiceXml(parseXml(xml))!.findings.map((finding) => finding.rule);

describe('validateInvoiceXml', () => {
  it('lists fatal findings before warnings, each with its place and the value found', () => {
    const report = validateInvoiceXml(
      parseXml(
        `${UBL_HEAD}<cac:PaymentMeans><cbc:PaymentMeansCode>48</cbc:PaymentMeansCode><cac:CardAccount><cbc:PrimaryAccountNumberID>4111111111111111</cbc:PrimaryAccountNumberID></cac:CardAccount></cac:PaymentMeans><cac:InvoiceLine><cbc:ID>7</cbc:ID><cac:Price><cbc:PriceAmount>-5</cbc:PriceAmount></cac:Price></cac:InvoiceLine></Invoice>`,
      ),
    )!;
    assert.equal(report.status, 'invalid');
    const fatal = report.findings.findIndex((finding) => finding.flag === 'fatal');
    const warning = report.findings.findIndex((finding) => finding.rule === 'BR-51');
    assert.ok(fatal === 0 && warning > 0, 'fatal first, then the card-number warning');
    const negativePrice = report.findings.find((finding) => finding.rule === 'BR-27')!;
    assert.deepEqual({ at: negativePrice.at, value: negativePrice.value }, { at: 'line 7', value: '-5' });
    assert.ok(negativePrice.plain);
  });

  it('keeps at most the stored number of findings and counts the rest', () => {
    const lines = '<cac:InvoiceLine/>'.repeat(MAX_STORED_FINDINGS);
    const report = validateInvoiceXml(parseXml(`${UBL_HEAD}${lines}</Invoice>`))!;
    assert.equal(report.findings.length, MAX_STORED_FINDINGS);
    assert.ok(report.omittedFindings > MAX_STORED_FINDINGS, 'each line breaks several rules');
  });

  it('reads the VAT point date code from the list each syntax uses', () => {
    const cii = (code: string) =>
      rulesFired(
        `${CII_HEAD}<ram:ApplicableTradeTax><ram:DueDateTypeCode>${code}</ram:DueDateTypeCode></ram:ApplicableTradeTax>${CII_TAIL}`,
      );
    assert.ok(!cii('5').includes('BR-CL-06'), 'CII writes 5 (UNTDID 2475) for the issue date');
    assert.ok(cii('3').includes('BR-CL-06'));
    const ubl = (code: string) =>
      rulesFired(
        `${UBL_HEAD}<cac:InvoicePeriod><cbc:DescriptionCode>${code}</cbc:DescriptionCode></cac:InvoicePeriod></Invoice>`,
      );
    assert.ok(!ubl('3').includes('BR-CL-06'));
    assert.ok(ubl('5').includes('BR-CL-06'));
  });

  it('has no report for a document that is not an invoice', () => {
    assert.equal(validateInvoiceXml(parseXml('<Order xmlns="urn:example"/>')), null);
  });
});

describe('CII invoices are held to the same rules as UBL', () => {
  const sample = async () => (await readEInvoiceFixture('xrechnung-cii.xml')).toString('utf8');
  const firedOn = (xml: string) => new Set(rulesFired(xml));
  const changed = (xml: string, from: string, to: string) => {
    assert.ok(xml.includes(from), `the sample writes ${from}`);
    return xml.replace(from, to);
  };

  it('finds nothing in the public XRechnung CII sample', async () => {
    assert.deepEqual(rulesFired(await sample()), []);
  });

  it('finds an amount due that does not follow from the totals', async () => {
    const xml = changed(await sample(), '<ram:DuePayableAmount>336.9<', '<ram:DuePayableAmount>999.99<');
    assert.deepEqual(rulesFired(xml), ['BR-CO-16']);
  });

  it('finds a line amount that no longer adds up, in the line total and the VAT breakdown', async () => {
    const xml = changed(await sample(), '<ram:LineTotalAmount>288.79<', '<ram:LineTotalAmount>280.00<');
    const fired = firedOn(xml);
    assert.ok(fired.has('BR-CO-10'), 'the sum of the lines');
    assert.ok(
      [...fired].some((rule) => /^BR-(S|Z|E|AE|IC|G|O|AF|AG)-08$/.test(rule)),
      'the taxable amount of its category',
    );
  });

  it('finds a missing seller name and a country outside ISO 3166', async () => {
    const xml = changed(
      changed(await sample(), '<ram:Name>[Seller name]</ram:Name>', ''),
      '<ram:CountryID>DE</ram:CountryID>',
      '<ram:CountryID>XX</ram:CountryID>',
    );
    const fired = firedOn(xml);
    assert.ok(fired.has('BR-06') && fired.has('BR-CL-14'), [...fired].join(' '));
  });
});

describe('the reader validates the XML it reads', () => {
  it("reports a Factur-X PDF's attached XML, and reports MINIMUM as below EN 16931", async () => {
    assert.equal((await readInvoice(await readEInvoiceFixture('facturx-en16931.pdf'))).validation?.status, 'valid');
    const minimum = (await readInvoice(await readEInvoiceFixture('facturx-minimum.pdf'))).validation!;
    assert.equal(minimum.status, 'invalid');
    assert.ok(
      minimum.findings.some((finding) => finding.rule === 'BR-16'),
      'a MINIMUM invoice has no lines',
    );
  });
});
