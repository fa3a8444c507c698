import { UBL_NS } from '../ubl.ts';
import { childOf, childrenOf, isTrue, pathOf, textOf, type XmlElement } from '../xml-tree.ts';
import { currenciesIn } from './currencies-in.ts';
import type {
  SemanticAddress,
  SemanticInvoice,
  SemanticParty,
  SemanticPeriod,
  UblOccurrences,
} from './semantic-model.ts';
import { ublCardinalities } from './ubl-cardinalities.ts';
import { UBL_CODE_SITES, walk, writtenCodes } from './written-codes.ts';

const cac = (local: string): [string, string] => [UBL_NS.cac, local];
const cbc = (local: string): [string, string] => [UBL_NS.cbc, local];
const text = (element: XmlElement | undefined, ...steps: [string, string][]) => textOf(pathOf(element, ...steps));
const all = (element: XmlElement | undefined, local: string) => childrenOf(element, ...cac(local));

function address(element: XmlElement | undefined): SemanticAddress | undefined {
  return (
    element && {
      country: text(element, cac('Country'), cbc('IdentificationCode')),
      city: text(element, cbc('CityName')),
      postCode: text(element, cbc('PostalZone')),
    }
  );
}

/**
 * An invoice period; UBL carries the VAT point date code (BT-8) in the same element, so one that holds only
 * that code is no invoicing period (BG-14).
 */
function period(element: XmlElement | undefined): SemanticPeriod | undefined {
  if (!element || (element.children.length > 0 && element.children.every((child) => child.local === 'DescriptionCode')))
    return undefined;
  return { start: text(element, cbc('StartDate')), end: text(element, cbc('EndDate')) };
}

const isVatScheme = (scheme: XmlElement) => text(scheme, cac('TaxScheme'), cbc('ID'))?.toUpperCase() === 'VAT';

function party(element: XmlElement | undefined): SemanticParty | undefined {
  if (!element) return undefined;
  const schemes = all(element, 'PartyTaxScheme');
  const endpoint = childOf(element, ...cbc('EndpointID'));
  return {
    name: text(element, cac('PartyLegalEntity'), cbc('RegistrationName')),
    identifiers: all(element, 'PartyIdentification')
      .map((entry) => text(entry, cbc('ID')))
      .filter((value): value is string => value !== null),
    legalId: text(element, cac('PartyLegalEntity'), cbc('CompanyID')),
    vatId: text(schemes.find(isVatScheme), cbc('CompanyID')),
    taxRegistrationId: text(
      schemes.find((scheme) => !isVatScheme(scheme)),
      cbc('CompanyID'),
    ),
    electronicAddress: endpoint && { value: textOf(endpoint), scheme: endpoint.attributes.schemeID ?? null },
    address: address(childOf(element, ...cac('PostalAddress'))),
    contact: ((contact) =>
      contact && {
        name: text(contact, cbc('Name')),
        telephone: text(contact, cbc('Telephone')),
        email: text(contact, cbc('ElectronicMail')),
      })(childOf(element, ...cac('Contact'))),
  };
}

/** BG-20/21 and BG-27/28 alike: what a document-level and a line-level allowance or charge both carry. */
function allowanceCharge(entry: XmlElement) {
  const indicator = text(entry, cbc('ChargeIndicator'));
  return {
    charge: isTrue(indicator),
    indicator,
    amount: text(entry, cbc('Amount')),
    base: text(entry, cbc('BaseAmount')),
    percentage: text(entry, cbc('MultiplierFactorNumeric')),
    reason: text(entry, cbc('AllowanceChargeReason')),
    reasonCode: text(entry, cbc('AllowanceChargeReasonCode')),
  };
}

/** The date elements Peppol's format rule reads. */
const DATE_ELEMENTS = new Set(['IssueDate', 'DueDate', 'TaxPointDate', 'StartDate', 'EndDate', 'ActualDeliveryDate']);

/**
 * Whether an element stands in a price's allowance. A plain loop from the second ancestor: a callback per
 * amount that also read `ancestors[-1]` (a property looked up by the text "-1") made megabytes of garbage on a
 * document of thousands of lines.
 */
function underPriceAllowance(ancestors: XmlElement[]): boolean {
  for (let index = 1; index < ancestors.length; index += 1)
    if (ancestors[index]!.local === 'AllowanceCharge' && ancestors[index - 1]!.local === 'Price') return true;
  return false;
}

/** What UBL's data-type rules (UBL-DT-*) and UBL-SR-43 read, wherever it stands. */
function dataTypes(
  root: XmlElement,
): Pick<UblOccurrences, 'amounts' | 'binaryObjects' | 'documentReferences' | 'dates'> {
  const found: ReturnType<typeof dataTypes> = { amounts: [], binaryObjects: [], documentReferences: [], dates: [] };
  walk(root, (element, ancestors) => {
    const { local } = element;
    if (DATE_ELEMENTS.has(local)) found.dates.push(element.text.trim());
    else if (local.endsWith('BinaryObject'))
      found.binaryObjects.push({
        mimeCode: element.attributes.mimeCode ?? null,
        filename: element.attributes.filename ?? null,
      });
    else if (local === 'AdditionalDocumentReference')
      found.documentReferences.push({
        typeCode: text(element, cbc('DocumentTypeCode')),
        scheme: childOf(element, ...cbc('ID'))?.attributes.schemeID !== undefined,
      });
    else if (
      local.endsWith('Amount') &&
      !local.endsWith('PriceAmount') &&
      // A price's allowance (BT-147, BT-148) is a price, whose decimals are not limited.
      !underPriceAllowance(ancestors)
    )
      found.amounts.push(element.text.trim());
  });
  return found;
}

/** The EN 16931 terms of a UBL invoice or credit note, as the standard's UBL syntax binding places them. */
export function ublSemantics(root: XmlElement): SemanticInvoice {
  const creditNote = root.local === 'CreditNote';
  const currency = text(root, cbc('DocumentCurrencyCode'));
  const taxCurrency = text(root, cbc('TaxCurrencyCode'));
  const taxTotals = all(root, 'TaxTotal');
  const taxAmountIn = (code: string | null) =>
    taxTotals
      .map((total) => childOf(total, ...cbc('TaxAmount')))
      .find((amount) => amount?.attributes.currencyID === code);
  const taxAmounts = taxTotals
    .map((total) => childOf(total, ...cbc('TaxAmount')))
    .filter((amount) => amount !== undefined);
  const totals = childOf(root, ...cac('LegalMonetaryTotal'));
  const total = (local: string) => text(totals, cbc(local));
  const taxRepresentative = childOf(root, ...cac('TaxRepresentativeParty'));
  const delivery = childOf(root, ...cac('Delivery'));
  const means = all(root, 'PaymentMeans');

  const seller = pathOf(root, cac('AccountingSupplierParty'), cac('Party'));
  const mandate = means.map((entry) => childOf(entry, ...cac('PaymentMandate'))).find(Boolean);
  const lines = all(root, creditNote ? 'CreditNoteLine' : 'InvoiceLine');
  const taxSchemesOf = (partyPath: string) =>
    all(pathOf(root, cac(partyPath), cac('Party')), 'PartyTaxScheme').map((scheme) =>
      text(scheme, cac('TaxScheme'), cbc('ID')),
    );
  return {
    syntax: 'ubl',
    ublOccurrences: {
      sellerTaxSchemes: taxSchemesOf('AccountingSupplierParty'),
      buyerTaxSchemes: taxSchemesOf('AccountingCustomerParty'),
      paymentIds: means.flatMap((entry) =>
        childrenOf(entry, ...cbc('PaymentID'))
          .map((id) => textOf(id))
          .filter((value): value is string => value !== null),
      ),
      ...dataTypes(root),
      lineDocumentReferences: lines.map((line) =>
        all(line, 'DocumentReference').map((entry) => text(entry, cbc('DocumentTypeCode'))),
      ),
      cardinalities: ublCardinalities(root),
      taxTotalsWithSubtotals: taxTotals.filter((entry) => all(entry, 'TaxSubtotal').length > 0).length,
      taxTotalsWithoutSubtotals: taxTotals.filter((entry) => all(entry, 'TaxSubtotal').length === 0).length,
    },
    ...writtenCodes(root, UBL_CODE_SITES),
    creditNote,
    specification: text(root, cbc('CustomizationID')),
    profile: text(root, cbc('ProfileID')),
    buyerReference: text(root, cbc('BuyerReference')),
    orderReference: text(root, cac('OrderReference'), cbc('ID')),
    notes: childrenOf(root, ...cbc('Note')).map((note) => note.text.trim()),
    number: text(root, cbc('ID')),
    issueDate: text(root, cbc('IssueDate')),
    typeCode: text(root, cbc(creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')),
    currency,
    taxCurrency,
    taxPointDate: text(root, cbc('TaxPointDate')),
    taxPointDateCode:
      all(root, 'InvoicePeriod')
        .map((entry) => text(entry, cbc('DescriptionCode')))
        .find(Boolean) ?? null,
    dueDate:
      text(root, cbc('DueDate')) ?? means.map((entry) => text(entry, cbc('PaymentDueDate'))).find(Boolean) ?? null,
    paymentTerms: text(root, cac('PaymentTerms'), cbc('Note')),
    paymentTermsText: pathOf(root, cac('PaymentTerms'), cbc('Note'))?.text ?? null,
    directDebit: mandate && {
      mandate: text(mandate, cbc('ID')),
      creditorId: textOf(
        [seller, childOf(root, ...cac('PayeeParty'))]
          .flatMap((party) => all(party, 'PartyIdentification'))
          .map((entry) => childOf(entry, ...cbc('ID')))
          .find((id) => id?.attributes.schemeID === 'SEPA'),
      ),
      debitedAccount: text(mandate, cac('PayerFinancialAccount'), cbc('ID')),
    },
    // Each BillingReference is one BG-3, whether or not its reference is written.
    precedingInvoices: all(root, 'BillingReference').map((entry) => ({
      number: text(entry, cac('InvoiceDocumentReference'), cbc('ID')),
    })),
    seller: party(seller),
    buyer: party(pathOf(root, cac('AccountingCustomerParty'), cac('Party'))),
    payee: ((payee) => payee && { name: text(payee, cac('PartyName'), cbc('Name')) })(
      childOf(root, ...cac('PayeeParty')),
    ),
    taxRepresentative: taxRepresentative && {
      name: text(taxRepresentative, cac('PartyName'), cbc('Name')),
      vatId: text(all(taxRepresentative, 'PartyTaxScheme').find(isVatScheme), cbc('CompanyID')),
      address: address(childOf(taxRepresentative, ...cac('PostalAddress'))),
    },
    delivery: delivery && {
      date: text(delivery, cbc('ActualDeliveryDate')),
      address: address(pathOf(delivery, cac('DeliveryLocation'), cac('Address'))),
    },
    period: period(childOf(root, ...cac('InvoicePeriod'))),
    paymentMeans: means.map((entry) => ({
      code: text(entry, cbc('PaymentMeansCode')),
      creditTransfers: all(entry, 'PayeeFinancialAccount').map((account) => ({ account: text(account, cbc('ID')) })),
      cardNumber: text(entry, cac('CardAccount'), cbc('PrimaryAccountNumberID')),
      card: childOf(entry, ...cac('CardAccount')) !== undefined,
      mandate: ((entryMandate) =>
        entryMandate && {
          id: text(entryMandate, cbc('ID')),
          account: text(entryMandate, cac('PayerFinancialAccount'), cbc('ID')),
        })(childOf(entry, ...cac('PaymentMandate'))),
    })),
    allowancesCharges: all(root, 'AllowanceCharge').map((entry) => ({
      ...allowanceCharge(entry),
      category: text(entry, cac('TaxCategory'), cbc('ID')),
      rate: text(entry, cac('TaxCategory'), cbc('Percent')),
    })),
    totals: totals && {
      lineTotal: total('LineExtensionAmount'),
      allowanceTotal: total('AllowanceTotalAmount'),
      chargeTotal: total('ChargeTotalAmount'),
      withoutVat: total('TaxExclusiveAmount'),
      withVat: total('TaxInclusiveAmount'),
      prepaid: total('PrepaidAmount'),
      rounding: total('PayableRoundingAmount'),
      payable: total('PayableAmount'),
    },
    taxTotals: taxAmounts
      .filter((amount) => (amount.attributes.currencyID ?? currency) === currency)
      .map((amount) => textOf(amount) ?? ''),
    taxTotalAccounting: taxCurrency && taxCurrency !== currency ? textOf(taxAmountIn(taxCurrency)) : null,
    // Subtotals belong in the invoice-currency tax total only (UBL-SR-*): each one read is a breakdown stated.
    vatBreakdown: taxTotals
      .flatMap((total) => all(total, 'TaxSubtotal'))
      .map((subtotal) => ({
        taxable: text(subtotal, cbc('TaxableAmount')),
        tax: text(subtotal, cbc('TaxAmount')),
        category: text(subtotal, cac('TaxCategory'), cbc('ID')),
        rate: text(subtotal, cac('TaxCategory'), cbc('Percent')),
        exemptionReason: text(subtotal, cac('TaxCategory'), cbc('TaxExemptionReason')),
        exemptionCode: text(subtotal, cac('TaxCategory'), cbc('TaxExemptionReasonCode')),
      })),
    supportingDocuments: all(root, 'AdditionalDocumentReference').map((entry) => ({
      reference: text(entry, cbc('ID')),
      ...((object) => ({
        mimeCode: object?.attributes.mimeCode ?? null,
        filename: object?.attributes.filename ?? null,
      }))(pathOf(entry, cac('Attachment'), cbc('EmbeddedDocumentBinaryObject'))),
    })),
    amountCurrencies: currenciesIn(root),
    itemCategories: [...all(root, 'InvoiceLine'), ...all(root, 'CreditNoteLine')]
      .map((line) => text(line, cac('Item'), cac('ClassifiedTaxCategory'), cbc('ID')))
      .filter((value): value is string => value !== null),
    lines: lines.map((line) => {
      const quantity = childOf(line, ...cbc(creditNote ? 'CreditedQuantity' : 'InvoicedQuantity'));
      const item = childOf(line, ...cac('Item'));
      const price = childOf(line, ...cac('Price'));
      return {
        id: text(line, cbc('ID')),
        quantity: textOf(quantity),
        unitCode: quantity ? (quantity.attributes.unitCode ?? null) : null,
        netAmount: text(line, cbc('LineExtensionAmount')),
        period: period(childOf(line, ...cac('InvoicePeriod'))),
        allowancesCharges: all(line, 'AllowanceCharge').map(allowanceCharge),
        netPrice: text(price, cbc('PriceAmount')),
        grossPrice: text(price, cac('AllowanceCharge'), cbc('BaseAmount')),
        priceDiscount: text(price, cac('AllowanceCharge'), cbc('Amount')),
        priceAllowanceIndicator: text(price, cac('AllowanceCharge'), cbc('ChargeIndicator')),
        baseQuantity: text(price, cbc('BaseQuantity')),
        baseQuantityUnit: childOf(price, ...cbc('BaseQuantity'))?.attributes.unitCode ?? null,
        category: text(item, cac('ClassifiedTaxCategory'), cbc('ID')),
        rate: text(item, cac('ClassifiedTaxCategory'), cbc('Percent')),
        itemName: text(item, cbc('Name')),
        standardIds: all(item, 'StandardItemIdentification').map((entry) => {
          const id = childOf(entry, ...cbc('ID'));
          return { value: textOf(id), scheme: id?.attributes.schemeID ?? null };
        }),
        classifications: childrenOf(item, ...cac('CommodityClassification')).map((entry) => {
          const code = childOf(entry, ...cbc('ItemClassificationCode'));
          return { value: textOf(code), scheme: code?.attributes.listID ?? null };
        }),
        originCountry: text(item, cac('OriginCountry'), cbc('IdentificationCode')),
        attributes: all(item, 'AdditionalItemProperty').map((entry) => ({
          name: text(entry, cbc('Name')),
          value: text(entry, cbc('Value')),
        })),
      };
    }),
  };
}
