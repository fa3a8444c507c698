import type { EInvoiceContent, EInvoiceParty } from './model.ts';
import { distinctAccounts } from './iban.ts';
import { childOf, childrenOf, isTrue, pathOf, textOf, type XmlElement } from './xml-tree.ts';

/** OASIS UBL 2.1, as used by XRechnung UBL and Peppol BIS Billing 3.0. */
export const UBL_NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

const cac = (local: string): [string, string] => [UBL_NS.cac, local];
const cbc = (local: string): [string, string] => [UBL_NS.cbc, local];

export function isUblRoot(root: XmlElement): boolean {
  return (
    (root.ns === UBL_NS.invoice && root.local === 'Invoice') ||
    (root.ns === UBL_NS.creditNote && root.local === 'CreditNote')
  );
}

/** UBL dates are xsd:date, `YYYY-MM-DD`, possibly with a zone suffix that EN 16931 does not use. */
function ublDate(element: XmlElement | undefined): string | null {
  const value = textOf(element);
  if (!value) return null;
  const date = value.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

function party(element: XmlElement | undefined): EInvoiceParty {
  const schemes = childrenOf(element, ...cac('PartyTaxScheme'));
  // BT-31 is the tax scheme VAT; another scheme (e.g. a national tax number) is BT-32.
  const vat = schemes.find((scheme) => textOf(pathOf(scheme, cac('TaxScheme'), cbc('ID'))) === 'VAT');
  const address = childOf(element, ...cac('PostalAddress'));
  const line = (local: string) => textOf(childOf(address, ...cbc(local)));
  const cityLine = [line('PostalZone'), line('CityName')].filter(Boolean).join(' ');
  return {
    name:
      textOf(pathOf(element, cac('PartyLegalEntity'), cbc('RegistrationName'))) ??
      textOf(pathOf(element, cac('PartyName'), cbc('Name'))),
    vatId: textOf(childOf(vat, ...cbc('CompanyID'))),
    address: [
      line('StreetName'),
      line('AdditionalStreetName'),
      textOf(pathOf(address, cac('AddressLine'), cbc('Line'))),
      cityLine || null,
      textOf(pathOf(address, cac('Country'), cbc('IdentificationCode'))),
    ].filter((value): value is string => value !== null),
  };
}

/**
 * Maps a UBL invoice or credit note onto the EN 16931 terms (BT numbers as in the standard's UBL syntax
 * binding). A credit note differs in its line and type-code element names and carries its due date on the
 * payment means.
 */
export function readUbl(root: XmlElement): EInvoiceContent {
  const creditNote = root.local === 'CreditNote';
  const currency = textOf(childOf(root, ...cbc('DocumentCurrencyCode')));
  const totals = childOf(root, ...cac('LegalMonetaryTotal'));
  const allMeans = childrenOf(root, ...cac('PaymentMeans'));
  const means = allMeans[0];
  const accountIdOf = (entry: XmlElement | undefined) => textOf(pathOf(entry, cac('PayeeFinancialAccount'), cbc('ID')));
  const account = childOf(means, ...cac('PayeeFinancialAccount'));
  const seller = party(pathOf(root, cac('AccountingSupplierParty'), cac('Party')));
  const buyer = party(pathOf(root, cac('AccountingCustomerParty'), cac('Party')));
  const lineElements = childrenOf(root, ...cac(creditNote ? 'CreditNoteLine' : 'InvoiceLine'));
  const total = (local: string) => textOf(childOf(totals, ...cbc(local)));

  // BT-110 is the TaxTotal in the document currency; another (BT-111) may be in the accounting currency.
  const taxTotals = childrenOf(root, ...cac('TaxTotal'));
  const taxAmount = (taxTotal: XmlElement) => childOf(taxTotal, ...cbc('TaxAmount'));
  const invoiceTax =
    taxTotals.find((taxTotal) => taxAmount(taxTotal)?.attributes.currencyID === currency) ??
    taxTotals.find((taxTotal) => childrenOf(taxTotal, ...cac('TaxSubtotal')).length > 0) ??
    taxTotals[0];

  return {
    syntax: 'ubl',
    facts: {
      profile: textOf(childOf(root, ...cbc('CustomizationID'))),
      invoiceNumber: textOf(childOf(root, ...cbc('ID'))),
      typeCode: textOf(childOf(root, ...cbc(creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'))),
      issueDate: ublDate(childOf(root, ...cbc('IssueDate'))),
      dueDate: ublDate(childOf(root, ...cbc('DueDate'))) ?? ublDate(childOf(means, ...cbc('PaymentDueDate'))),
      currency,
      sellerName: seller.name,
      sellerVatId: seller.vatId,
      buyerName: buyer.name,
      buyerReference: textOf(childOf(root, ...cbc('BuyerReference'))),
      totalNet: total('TaxExclusiveAmount'),
      totalTax: invoiceTax ? textOf(taxAmount(invoiceTax)) : null,
      totalGross: total('TaxInclusiveAmount'),
      amountDue: total('PayableAmount'),
      iban: accountIdOf(means),
      paymentAccounts: distinctAccounts(allMeans.map(accountIdOf)),
      lineCount: lineElements.length,
    },
    seller,
    buyer,
    lines: lineElements.map((line) => {
      const quantity = childOf(line, ...cbc(creditNote ? 'CreditedQuantity' : 'InvoicedQuantity'));
      return {
        id: textOf(childOf(line, ...cbc('ID'))),
        name: textOf(pathOf(line, cac('Item'), cbc('Name'))),
        quantity: textOf(quantity),
        unitCode: quantity?.attributes.unitCode ?? null,
        netPrice: textOf(pathOf(line, cac('Price'), cbc('PriceAmount'))),
        netAmount: textOf(childOf(line, ...cbc('LineExtensionAmount'))),
      };
    }),
    vatBreakdown: childrenOf(invoiceTax, ...cac('TaxSubtotal')).map((subtotal) => ({
      category: textOf(pathOf(subtotal, cac('TaxCategory'), cbc('ID'))),
      rate: textOf(pathOf(subtotal, cac('TaxCategory'), cbc('Percent'))),
      taxableAmount: textOf(childOf(subtotal, ...cbc('TaxableAmount'))),
      taxAmount: textOf(childOf(subtotal, ...cbc('TaxAmount'))),
    })),
    allowancesCharges: childrenOf(root, ...cac('AllowanceCharge')).map((entry) => ({
      charge: isTrue(textOf(childOf(entry, ...cbc('ChargeIndicator')))),
      amount: textOf(childOf(entry, ...cbc('Amount'))),
      reason: textOf(childOf(entry, ...cbc('AllowanceChargeReason'))),
    })),
    lineTotal: total('LineExtensionAmount'),
    allowanceTotal: total('AllowanceTotalAmount'),
    chargeTotal: total('ChargeTotalAmount'),
    prepaid: total('PrepaidAmount'),
    payment: {
      meansCode: textOf(childOf(means, ...cbc('PaymentMeansCode'))),
      accountName: textOf(childOf(account, ...cbc('Name'))),
      bic: textOf(pathOf(account, cac('FinancialInstitutionBranch'), cbc('ID'))),
      reference: textOf(childOf(means, ...cbc('PaymentID'))),
      terms: textOf(pathOf(root, cac('PaymentTerms'), cbc('Note'))),
    },
    notes: childrenOf(root, ...cbc('Note'))
      .map((note) => textOf(note))
      .filter((note): note is string => note !== null),
  };
}
