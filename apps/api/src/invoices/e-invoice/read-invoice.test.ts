import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AFRelationship, PDFDocument } from '@cantoo/pdf-lib';
import type { EInvoiceFacts } from './model.ts';
import { DEFAULT_READ_LIMITS, InvoiceRefusedError, readInvoice, type InvoiceFormat } from './read-invoice.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const fixture = readEInvoiceFixture;

/** A hybrid made here: the plain sample PDF with `xml` attached the way Factur-X attaches it. */
async function attachToPlainPdf(xml: Uint8Array | string, name = 'factur-x.xml'): Promise<Uint8Array> {
  const document = await PDFDocument.load(await fixture('plain.pdf'), { updateMetadata: false });
  await document.attach(typeof xml === 'string' ? Buffer.from(xml) : xml, name, {
    mimeType: 'text/xml',
    afRelationship: AFRelationship.Alternative,
  });
  return document.save();
}

/** The XML with a copy of its first line added as that line's sub-line, the way its syntax writes one. */
function withSubLine(xml: string): string {
  const cii = /<(\w+:)?IncludedSupplyChainTradeLineItem>[\s\S]*?<\/\1IncludedSupplyChainTradeLineItem>/.exec(xml);
  if (cii) {
    const prefix = cii[1] ?? '';
    const sub = cii[0].replace(
      new RegExp(`(<${prefix}LineID>[^<]*</${prefix}LineID>)`),
      `$1<${prefix}ParentLineID>1</${prefix}ParentLineID>`,
    );
    assert.notEqual(sub, cii[0], 'the sub-line names its parent');
    return xml.replace(cii[0], cii[0] + sub);
  }
  const ubl = /<(\w+:)?(InvoiceLine|CreditNoteLine)>([\s\S]*?)<\/\1\2>/.exec(xml);
  assert.ok(ubl, 'a line to add a sub-line to');
  const [line, prefix = '', name, body] = ubl;
  const sub = `<${prefix}Sub${name}>${body}</${prefix}Sub${name}>`;
  return xml.replace(line, `<${prefix}${name}>${body}${sub}</${prefix}${name}>`);
}

interface Expected {
  format: InvoiceFormat;
  profileName: string;
  facts: EInvoiceFacts;
}

/**
 * Every public sample with the terms read off the file by hand (the README says where each comes from).
 * Together: Factur-X MINIMUM, BASIC WL, BASIC, EN 16931 and EXTENDED hybrids, an XRechnung CII hybrid,
 * XML-only CII (EN 16931, XRechnung, Factur-X BASIC), UBL (EN 16931, XRechnung, Peppol BIS 3.0) invoices and
 * credit notes; one to three VAT rates; allowances and charges; a foreign invoice currency with the tax
 * total also in the accounting currency.
 */
const SAMPLES: Record<string, Expected> = {
  'facturx-minimum.pdf': {
    format: 'facturx',
    profileName: 'Factur-X MINIMUM',
    facts: {
      profile: 'urn:factur-x.eu:1p0:minimum',
      invoiceNumber: 'F20220027',
      typeCode: '380',
      issueDate: '2022-01-31',
      dueDate: null,
      currency: 'EUR',
      sellerName: 'LE FOURNISSEUR',
      sellerVatId: 'FR11123456782',
      buyerName: 'LE CLIENT',
      buyerReference: 'SERVEXEC',
      totalNet: '100.00',
      totalTax: '10.00',
      totalGross: '110.00',
      amountDue: '100.00',
      iban: null,
      paymentAccounts: [],
      lineCount: 0,
    },
  },
  'facturx-basicwl.pdf': {
    format: 'facturx',
    profileName: 'Factur-X BASIC WL',
    facts: {
      profile: 'urn:factur-x.eu:1p0:basicwl',
      invoiceNumber: 'AV-2017-0005',
      typeCode: '380',
      issueDate: '2017-11-16',
      dueDate: '2017-11-16',
      currency: 'EUR',
      sellerName: 'Au bon moulin',
      sellerVatId: 'FR11999999998',
      buyerName: 'Ma jolie boutique',
      buyerReference: null,
      totalNet: '-218.48',
      totalTax: '-14.99',
      totalGross: '-233.47',
      amountDue: '-233.47',
      iban: null,
      paymentAccounts: [],
      lineCount: 0,
    },
  },
  'facturx-en16931.pdf': {
    format: 'facturx',
    profileName: 'Factur-X EN 16931',
    facts: {
      profile: 'urn:cen.eu:en16931:2017',
      invoiceNumber: '471102',
      typeCode: '380',
      issueDate: '2024-11-15',
      dueDate: null,
      currency: 'EUR',
      sellerName: 'Lieferant GmbH',
      sellerVatId: 'DE123456789',
      buyerName: 'Kunden AG Mitte',
      buyerReference: null,
      totalNet: '473.00',
      totalTax: '56.87',
      totalGross: '529.87',
      amountDue: '529.87',
      iban: null,
      paymentAccounts: [],
      lineCount: 2,
    },
  },
  'facturx-en16931-allowances.pdf': {
    format: 'facturx',
    profileName: 'Factur-X EN 16931',
    facts: {
      profile: 'urn:cen.eu:en16931:2017',
      invoiceNumber: '471102',
      typeCode: '380',
      issueDate: '2018-06-05',
      dueDate: null,
      currency: 'EUR',
      sellerName: 'Lieferant GmbH',
      sellerVatId: 'DE123456789',
      buyerName: 'Kunden AG Mitte',
      buyerReference: null,
      totalNet: '177.49',
      totalTax: '20.16',
      totalGross: '197.65',
      amountDue: '147.65',
      iban: null,
      paymentAccounts: [],
      lineCount: 4,
    },
  },
  'facturx-extended-foreign-currency.pdf': {
    format: 'facturx',
    profileName: 'Factur-X EXTENDED',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
      invoiceNumber: '47110815',
      typeCode: '380',
      issueDate: '2025-12-01',
      dueDate: '2025-12-31',
      currency: 'GBP',
      sellerName: 'Rohstoff AG Salzgitter',
      sellerVatId: 'DE123456788',
      buyerName: 'Metallbau Leipzig GmbH & Co. KG',
      buyerReference: null,
      totalNet: '858.75',
      // The GBP total, not the EUR one (BT-111) written beside it.
      totalTax: '163.16',
      totalGross: '1021.91',
      amountDue: '521.91',
      iban: 'DE77 3707 0060 0321 9870 00',
      paymentAccounts: ['DE77 3707 0060 0321 9870 00'],
      lineCount: 1,
    },
  },
  'zugferd-xrechnung.pdf': {
    format: 'facturx',
    profileName: 'XRechnung 1.2',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_1.2',
      invoiceNumber: '471102',
      typeCode: '380',
      issueDate: '2018-03-05',
      dueDate: null,
      currency: 'EUR',
      sellerName: 'Lieferant GmbH',
      sellerVatId: 'DE123456789',
      buyerName: 'Kunden AG Mitte',
      buyerReference: '04011000-12345-34',
      totalNet: '473.00',
      totalTax: '56.87',
      totalGross: '529.87',
      amountDue: '529.87',
      iban: 'DE02120300000000202051',
      paymentAccounts: ['DE02120300000000202051'],
      lineCount: 2,
    },
  },
  'facturx-basic.xml': {
    format: 'cii',
    profileName: 'Factur-X BASIC',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
      invoiceNumber: '471102',
      typeCode: '380',
      issueDate: '2024-11-15',
      dueDate: '2024-12-15',
      currency: 'EUR',
      sellerName: 'Lieferant GmbH',
      sellerVatId: 'DE123456789',
      buyerName: 'Kunden AG Mitte',
      buyerReference: null,
      totalNet: '198.00',
      totalTax: '37.62',
      totalGross: '235.62',
      amountDue: '235.62',
      iban: null,
      paymentAccounts: [],
      lineCount: 1,
    },
  },
  'cii-en16931-three-rates.xml': {
    format: 'cii',
    profileName: 'EN 16931 (CII)',
    facts: {
      profile: 'urn:cen.eu:en16931:2017',
      invoiceNumber: 'TOSL108',
      typeCode: '380',
      issueDate: '2013-06-30',
      dueDate: '2013-07-20',
      currency: 'NOK',
      sellerName: 'Salescompany ltd.',
      sellerVatId: 'NO123456789MVA',
      buyerName: 'The Buyercompany',
      buyerReference: null,
      totalNet: '1436.5',
      totalTax: '365.28',
      totalGross: '1801.78',
      amountDue: '801.78',
      iban: 'NO9386011117947',
      paymentAccounts: ['NO9386011117947'],
      lineCount: 5,
    },
  },
  'xrechnung-cii.xml': {
    format: 'cii',
    profileName: 'XRechnung 3.0',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      invoiceNumber: '123456XX',
      typeCode: '380',
      issueDate: '2016-04-04',
      dueDate: null,
      currency: 'EUR',
      sellerName: '[Seller name]',
      sellerVatId: 'DE 123456789',
      buyerName: '[Buyer name]',
      buyerReference: '04011000-12345-03',
      totalNet: '314.86',
      totalTax: '22.04',
      totalGross: '336.9',
      amountDue: '336.9',
      iban: 'DE79000000001234567890',
      paymentAccounts: ['DE79000000001234567890'],
      lineCount: 2,
    },
  },
  'xrechnung-ubl.xml': {
    format: 'ubl',
    profileName: 'XRechnung 3.0',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      invoiceNumber: '123456XX',
      typeCode: '380',
      issueDate: '2016-04-04',
      dueDate: null,
      currency: 'EUR',
      sellerName: '[Seller name]',
      sellerVatId: 'DE 123456789',
      buyerName: '[Buyer name]',
      buyerReference: '04011000-12345-03',
      totalNet: '314.86',
      totalTax: '22.04',
      totalGross: '336.9',
      amountDue: '336.9',
      iban: 'DE79000000001234567890',
      paymentAccounts: ['DE79000000001234567890'],
      lineCount: 2,
    },
  },
  'ubl-en16931-allowances.xml': {
    format: 'ubl',
    profileName: 'EN 16931 (UBL)',
    facts: {
      profile: 'urn:cen.eu:en16931:2017',
      invoiceNumber: 'TOSL110',
      typeCode: '380',
      issueDate: '2013-04-10',
      dueDate: '2013-05-10',
      currency: 'DKK',
      sellerName: 'SellerCompany',
      sellerVatId: 'NL16356706',
      buyerName: 'Buyercompany ltd',
      buyerReference: 'qwerty',
      totalNet: '4000.00',
      totalTax: '675.00',
      totalGross: '4675.00',
      amountDue: '2337.50',
      iban: null,
      paymentAccounts: [],
      lineCount: 3,
    },
  },
  'ubl-en16931-credit-note.xml': {
    format: 'ubl',
    profileName: 'EN 16931 (UBL)',
    facts: {
      profile: 'urn:cen.eu:en16931:2017',
      invoiceNumber: '018304 / 28865',
      typeCode: '381',
      issueDate: '2019-09-23',
      dueDate: null,
      currency: 'EUR',
      sellerName: 'My Supplier Company',
      sellerVatId: 'BE0000000196',
      buyerName: 'My Customer Company',
      buyerReference: '018304 / 28865',
      totalNet: '100.11',
      totalTax: '0.00',
      totalGross: '100.11',
      amountDue: '100.11',
      iban: 'BE91000000143476',
      paymentAccounts: ['BE91000000143476'],
      lineCount: 1,
    },
  },
  'peppol-invoice.xml': {
    format: 'ubl',
    profileName: 'Peppol BIS Billing 3.0',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      invoiceNumber: 'Snippet1',
      typeCode: '380',
      issueDate: '2017-11-13',
      dueDate: '2017-12-01',
      currency: 'EUR',
      sellerName: 'SupplierOfficialName Ltd',
      sellerVatId: 'GB1232434',
      buyerName: 'Buyer Official Name',
      buyerReference: '0150abc',
      totalNet: '1325',
      totalTax: '331.25',
      totalGross: '1656.25',
      amountDue: '1656.25',
      iban: 'IBAN32423940',
      paymentAccounts: ['IBAN32423940'],
      lineCount: 2,
    },
  },
  'peppol-credit-note.xml': {
    format: 'ubl',
    profileName: 'Peppol BIS Billing 3.0',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      invoiceNumber: 'Snippet1',
      typeCode: '381',
      issueDate: '2017-11-13',
      dueDate: null,
      currency: 'EUR',
      sellerName: 'SupplierOfficialName Ltd',
      sellerVatId: 'GB1232434',
      buyerName: 'Buyer Official Name',
      buyerReference: '0150abc',
      totalNet: '1325',
      totalTax: '331.25',
      totalGross: '1656.25',
      amountDue: '1656.25',
      iban: 'IBAN32423940',
      paymentAccounts: ['IBAN32423940'],
      lineCount: 2,
    },
  },
  'peppol-allowances.xml': {
    format: 'ubl',
    profileName: 'Peppol BIS Billing 3.0',
    facts: {
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      invoiceNumber: 'Snippet1',
      typeCode: '380',
      issueDate: '2017-11-13',
      dueDate: '2017-12-01',
      currency: 'EUR',
      sellerName: 'SupplierOfficialName Ltd',
      sellerVatId: 'GB1232434',
      buyerName: 'Buyer Official Name',
      buyerReference: '0150abc',
      totalNet: '5900',
      totalTax: '1225.00',
      totalGross: '7125',
      amountDue: '6125.00',
      iban: 'IBAN32423940',
      paymentAccounts: ['IBAN32423940'],
      lineCount: 3,
    },
  },
};

describe('readInvoice over the public samples', () => {
  for (const [file, expected] of Object.entries(SAMPLES)) {
    it(`reads ${file} as ${expected.profileName}`, async () => {
      const bytes = await fixture(file);
      const read = await readInvoice(bytes);
      assert.equal(read.format, expected.format);
      assert.equal(read.profileName, expected.profileName);
      assert.deepEqual(read.content?.facts, expected.facts);
      assert.deepEqual(read.warnings, []);
      if (expected.format !== 'facturx') assert.equal(read.xml, bytes, 'an XML-only invoice is its own XML');
      else assert.match(Buffer.from(read.xml!).toString('utf8'), /<rsm:CrossIndustryInvoice /);
    });
  }

  // A sub-line (ZUGFeRD/Factur-X EXTENDED, XRechnung's BG-DEX-01) is part of its invoice line: CII writes it
  // as a line of its own naming the parent, UBL nests it in the line. Either way it is not a line of BG-25.
  for (const [file, expected] of Object.entries(SAMPLES)) {
    if (expected.facts.lineCount === 0) continue;
    it(`counts ${file}'s lines without a sub-line added to its first line`, async () => {
      const read = await readInvoice(await fixture(file));
      const xml = withSubLine(Buffer.from(read.xml!).toString('utf8'));
      const again = await readInvoice(Buffer.from(xml));
      assert.equal(again.content?.facts.lineCount, expected.facts.lineCount);
      assert.equal(again.content?.facts.invoiceNumber, expected.facts.invoiceNumber, 'still the same invoice');
    });
  }

  it('reads the details a rendering needs: lines, VAT breakdown, allowances and charges, payment', async () => {
    const read = await readInvoice(await fixture('cii-en16931-three-rates.xml'));
    const content = read.content!;
    assert.equal(content.lines.length, 5);
    assert.deepEqual(content.lines[0], {
      id: '1',
      name: 'Laptop computer',
      quantity: '1',
      unitCode: 'NAR',
      netPrice: '1273',
      netAmount: '1273',
    });
    assert.deepEqual(
      content.vatBreakdown.map((vat) => [vat.category, vat.rate, vat.taxAmount]),
      [
        ['S', '25', '365.13'],
        ['S', '15', '0.15'],
        ['E', '0', '0'],
      ],
    );
    assert.deepEqual(
      content.allowancesCharges.map((entry) => [entry.charge, entry.amount]),
      [
        [false, '100'],
        [true, '100'],
      ],
    );
    assert.equal(content.prepaid, '1000');
    assert.equal(content.payment.bic, 'DNBANOKK');
    assert.deepEqual(content.seller.address, ['Main street 34', 'Suite 123', '303 Big city', 'NO']);
  });

  it('reads UBL allowances, charges and a two-rate VAT breakdown', async () => {
    const content = (await readInvoice(await fixture('ubl-en16931-allowances.xml'))).content!;
    assert.deepEqual(
      content.vatBreakdown.map((vat) => vat.rate),
      ['25', '12'],
    );
    assert.ok(content.allowancesCharges.some((entry) => entry.charge));
    assert.ok(content.allowancesCharges.some((entry) => !entry.charge));
  });

  it('reads the pages of a PDF locked by an owner password only, and says why it cannot read one that needs a password', async () => {
    const encrypted = async (userPassword: string) => {
      const document = await PDFDocument.create();
      document.addPage().drawText('Please pay to IBAN DE02 1203 0000 0000 2020 51', { x: 50, y: 700, size: 11 });
      document.encrypt({ userPassword, ownerPassword: 'the-sellers-owner-password' });
      return document.save();
    };
    const iban = 'DE02120300000000202051';
    assert.deepEqual((await readInvoice(await encrypted(''))).visibleAccounts, { ibans: [iban], accounts: [iban] });
    const locked = await readInvoice(await encrypted('a-user-password'));
    assert.deepEqual(locked.visibleAccounts, { unreadable: 'it is encrypted with a password' });
    assert.deepEqual(locked.warnings, [
      "The PDF's visible text could not be read to compare its bank details: it is encrypted with a password.",
    ]);
  });

  it('reads a plain PDF as format pdf with no facts and no warning, and the accounts its page shows', async () => {
    const read = await readInvoice(await fixture('plain.pdf'));
    assert.deepEqual(read, {
      format: 'pdf',
      content: null,
      profileName: null,
      xml: null,
      visibleAccounts: { ibans: [], accounts: [] },
      warnings: [],
      validation: null,
    });
  });

  it('names ZUGFeRD 2.0 profiles as ZUGFeRD 2.0, not as the EN 16931 their identifier starts with', async () => {
    const xml = (await fixture('facturx-basic.xml')).toString('utf8');
    const factsWith = async (profile: string) => {
      const replaced = xml.replace('urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic', profile);
      assert.notEqual(replaced, xml);
      return readInvoice(await attachToPlainPdf(replaced, 'zugferd-invoice.xml'));
    };
    const cases: [string, string | null][] = [
      ['urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic', 'ZUGFeRD 2.0 BASIC'],
      ['urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended', 'ZUGFeRD 2.0 EXTENDED'],
      ['urn:zugferd.de:2p0:minimum', 'ZUGFeRD 2.0 MINIMUM'],
      ['urn:zugferd.de:2p0:basicwl', 'ZUGFeRD 2.0 BASIC WL'],
      ['urn:cen.eu:en16931:2017', 'Factur-X EN 16931'],
      // An extension the portal does not know is more than EN 16931: no name rather than a wrong one.
      ['urn:cen.eu:en16931:2017#conformant#urn:example.com:ext', null],
    ];
    for (const [profile, name] of cases) {
      const read = await factsWith(profile);
      assert.equal(read.profileName, name, profile);
      assert.equal(read.content?.facts.profile, profile, 'the identifier itself stays the fact');
    }
  });

  it('finds a BASIC invoice attached to a PDF made here', async () => {
    const xml = await fixture('facturx-basic.xml');
    const read = await readInvoice(await attachToPlainPdf(xml));
    assert.equal(read.format, 'facturx');
    assert.equal(read.profileName, 'Factur-X BASIC');
    assert.equal(read.content?.facts.invoiceNumber, '471102');
    assert.deepEqual(Buffer.from(read.xml!), xml);
  });

  it('finds the invoice among other attachments, whatever their order', async () => {
    const document = await PDFDocument.load(await attachToPlainPdf('<notes>not the invoice</notes>', 'notes.xml'));
    await document.attach(await fixture('xrechnung-cii.xml'), 'xrechnung.xml', { mimeType: 'text/xml' });
    const read = await readInvoice(await document.save());
    assert.equal(read.format, 'facturx');
    assert.equal(read.content?.facts.invoiceNumber, '123456XX');
    assert.deepEqual(read.warnings, []);
  });
});

describe('readInvoice with bad or hostile input', () => {
  const refused = async (bytes: Uint8Array, message: RegExp) => {
    await assert.rejects(readInvoice(bytes), (error: unknown) => {
      assert.ok(error instanceof InvoiceRefusedError, `expected a refusal, got ${String(error)}`);
      assert.match(error.message, message);
      return true;
    });
  };

  it('refuses an external entity (XXE) without reading anything', async () => {
    await refused(
      await fixture('hostile-xxe.xml'),
      /document type declaration \(DOCTYPE, ending at line 4, column 2\)/,
    );
  });

  it('refuses the billion laughs before expanding one entity', async () => {
    const started = performance.now();
    await refused(await fixture('hostile-billion-laughs.xml'), /DOCTYPE/);
    assert.ok(performance.now() - started < 1000);
  });

  it('refuses an external DTD, fetching nothing', async () => {
    await refused(await fixture('hostile-external-dtd.xml'), /DOCTYPE/);
  });

  it('refuses an entity that no DTD declares', async () => {
    await refused(await fixture('hostile-undeclared-entity.xml'), /not well-formed: undefined entity.*line 4/);
  });

  it('refuses truncated XML, saying where', async () => {
    await refused(await fixture('malformed-truncated.xml'), /not well-formed: .*line \d+/);
  });

  it('refuses XML of another kind, naming its root', async () => {
    await refused(
      await fixture('not-an-invoice.xml'),
      /root element is "Order" in namespace urn:oasis:names:specification:ubl:schema:xsd:Order-2/,
    );
  });

  it('refuses ZUGFeRD 1.0 by name', async () => {
    await refused(await fixture('zugferd-1-invoice.xml'), /ZUGFeRD 1\.0/);
  });

  it('refuses deep nesting', async () => {
    const depth = 10_000;
    const xml = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    await refused(Buffer.from(xml), /deeper than 64 levels/);
  });

  it('refuses a document over the size and element limits', async () => {
    const xml = Buffer.from(`<Invoice>${'<x/>'.repeat(2000)}</Invoice>`);
    const limits = {
      ...DEFAULT_READ_LIMITS,
      maxAttachmentBytes: 1024,
      xml: { maxChars: 1000, maxDepth: 64, maxElements: 100 },
    };
    await assert.rejects(readInvoice(xml, limits), /larger than the limit of 1000 characters/);
    await assert.rejects(
      readInvoice(xml, { ...limits, xml: { ...limits.xml, maxChars: 1e6 } }),
      /more than 100 elements/,
    );
  });

  it('refuses text that is not UTF-8, and an encoding other than UTF-8 declared', async () => {
    await refused(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]), /not valid UTF-8/);
    await refused(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'), /declares the encoding "ISO-8859-1"/);
  });

  it('refuses bytes that are neither PDF nor XML', async () => {
    await refused(Buffer.from('PK\u0003\u0004 a zip file'), /neither a PDF .* nor an XML e-invoice/);
  });

  it('keeps a PDF whose attached invoice XML is malformed, with a warning naming the problem', async () => {
    const read = await readInvoice(await attachToPlainPdf('<rsm:CrossIndustryInvoice xmlns:rsm="x"><oops>'));
    assert.equal(read.format, 'pdf');
    assert.equal(read.content, null);
    assert.equal(read.warnings.length, 1);
    assert.match(
      read.warnings[0]!,
      /"factur-x.xml" could not be read: The XML is not well-formed.*stored as a plain PDF/,
    );
  });

  it('keeps a PDF whose attached XML is hostile, with a warning', async () => {
    const read = await readInvoice(await attachToPlainPdf(await fixture('hostile-billion-laughs.xml')));
    assert.equal(read.format, 'pdf');
    assert.match(read.warnings[0]!, /DOCTYPE/);
  });

  it('stops inflating an attached file at the limit (a compressed bomb)', async () => {
    const bomb = Buffer.alloc(4 * 1024 * 1024, 0x20);
    const read = await readInvoice(await attachToPlainPdf(bomb), {
      ...DEFAULT_READ_LIMITS,
      maxAttachmentBytes: 1024 * 1024,
      xml: { maxChars: 1024 * 1024, maxDepth: 64, maxElements: 1000 },
    });
    assert.equal(read.format, 'pdf');
    assert.match(read.warnings[0]!, /larger than 1048576 bytes once decompressed/);
  });

  it('keeps a PDF it cannot parse, with a warning', async () => {
    const read = await readInvoice(Buffer.from('%PDF-1.7\nthis is not really a PDF\n%%EOF'));
    assert.equal(read.format, 'pdf');
    assert.equal(read.warnings.length, 1);
  });
});

describe('readInvoice with the EN 16931 check left out (the benchmark’s baseline)', () => {
  it('reads the same facts and makes no report, for XML only and for a hybrid', async () => {
    for (const file of ['xrechnung-ubl.xml', 'facturx-en16931.pdf']) {
      const bytes = await readEInvoiceFixture(file);
      const checked = await readInvoice(bytes);
      const unchecked = await readInvoice(bytes, { ...DEFAULT_READ_LIMITS, skipValidation: true });
      assert.ok(checked.validation, file);
      assert.equal(unchecked.validation, null, file);
      assert.deepEqual(unchecked.content, checked.content, file);
    }
  });
});
