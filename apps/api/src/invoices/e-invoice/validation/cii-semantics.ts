import { CII_NS } from '../cii.ts';
import { childOf, childrenOf, isTrue, pathOf, textOf, type XmlElement } from '../xml-tree.ts';
import { currenciesIn } from './currencies-in.ts';
import type { SemanticAddress, SemanticInvoice, SemanticParty, SemanticPeriod } from './semantic-model.ts';
import { CII_CODE_SITES, writtenCodes } from './written-codes.ts';

const ram = (local: string): [string, string] => [CII_NS.ram, local];
const rsm = (local: string): [string, string] => [CII_NS.rsm, local];
const text = (element: XmlElement | undefined, ...steps: [string, string][]) => textOf(pathOf(element, ...steps));
const all = (element: XmlElement | undefined, local: string) => childrenOf(element, ...ram(local));

/**
 * A udt:DateTimeString (or the udt:DateString the VAT point date, BT-7, is written as); format 102
 * (`YYYYMMDD`) as ISO so that dates compare as text in either syntax.
 */
function date(container: XmlElement | undefined): string | null {
  const value = text(container, [CII_NS.udt, 'DateTimeString']) ?? text(container, [CII_NS.udt, 'DateString']);
  return value && /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
}

function address(element: XmlElement | undefined): SemanticAddress | undefined {
  return (
    element && {
      country: text(element, ram('CountryID')),
      city: text(element, ram('CityName')),
      postCode: text(element, ram('PostcodeCode')),
    }
  );
}

function period(element: XmlElement | undefined): SemanticPeriod | undefined {
  return (
    element && {
      start: date(childOf(element, ...ram('StartDateTime'))),
      end: date(childOf(element, ...ram('EndDateTime'))),
    }
  );
}

function party(element: XmlElement | undefined): SemanticParty | undefined {
  if (!element) return undefined;
  const registrations = all(element, 'SpecifiedTaxRegistration').map((entry) => childOf(entry, ...ram('ID')));
  const endpoint = pathOf(element, ram('URIUniversalCommunication'), ram('URIID'));
  return {
    name: text(element, ram('Name')),
    identifiers: [...all(element, 'ID'), ...all(element, 'GlobalID')]
      .map((entry) => textOf(entry))
      .filter((value): value is string => value !== null),
    legalId: text(element, ram('SpecifiedLegalOrganization'), ram('ID')),
    vatId: textOf(registrations.find((id) => id?.attributes.schemeID === 'VA')),
    taxRegistrationId: textOf(registrations.find((id) => id?.attributes.schemeID === 'FC')),
    electronicAddress: endpoint && { value: textOf(endpoint), scheme: endpoint.attributes.schemeID ?? null },
    address: address(childOf(element, ...ram('PostalTradeAddress'))),
    contact: ((contact) =>
      contact && {
        name: text(contact, ram('PersonName')) ?? text(contact, ram('DepartmentName')),
        telephone: text(contact, ram('TelephoneUniversalCommunication'), ram('CompleteNumber')),
        email: text(contact, ram('EmailURIUniversalCommunication'), ram('URIID')),
      })(childOf(element, ...ram('DefinedTradeContact'))),
  };
}

const indicatorOf = (entry: XmlElement | undefined) => text(entry, ram('ChargeIndicator'), [CII_NS.udt, 'Indicator']);

/** The EN 16931 terms of a CII invoice, as the standard's CII syntax binding places them. */
export function ciiSemantics(root: XmlElement): SemanticInvoice {
  const document = childOf(root, ...rsm('ExchangedDocument'));
  const transaction = childOf(root, ...rsm('SupplyChainTradeTransaction'));
  const agreement = childOf(transaction, ...ram('ApplicableHeaderTradeAgreement'));
  const delivery = childOf(transaction, ...ram('ApplicableHeaderTradeDelivery'));
  const settlement = childOf(transaction, ...ram('ApplicableHeaderTradeSettlement'));
  const summation = childOf(settlement, ...ram('SpecifiedTradeSettlementHeaderMonetarySummation'));
  const currency = text(settlement, ram('InvoiceCurrencyCode'));
  const taxCurrency = text(settlement, ram('TaxCurrencyCode'));
  const sum = (local: string) => text(summation, ram(local));
  const taxTotals = all(summation, 'TaxTotalAmount');
  const taxTotalIn = (code: string | null) => textOf(taxTotals.find((total) => total.attributes.currencyID === code));
  const taxes = all(settlement, 'ApplicableTradeTax');
  const taxRepresentative = childOf(agreement, ...ram('SellerTaxRepresentativeTradeParty'));
  const shipTo = childOf(delivery, ...ram('ShipToTradeParty'));
  const payee = childOf(settlement, ...ram('PayeeTradeParty'));
  const terms = all(settlement, 'SpecifiedTradePaymentTerms');
  const mandateId = terms.map((entry) => text(entry, ram('DirectDebitMandateID'))).find(Boolean) ?? null;
  const creditorId = text(settlement, ram('CreditorReferenceID'));
  const means = all(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const debitedAccount =
    means.map((entry) => text(entry, ram('PayerPartyDebtorFinancialAccount'), ram('IBANID'))).find(Boolean) ?? null;
  const allowanceCharge = (entry: XmlElement) => ({
    charge: isTrue(indicatorOf(entry)),
    indicator: indicatorOf(entry),
    percentage: text(entry, ram('CalculationPercent')),
    amount: text(entry, ram('ActualAmount')),
    reason: text(entry, ram('Reason')),
    reasonCode: text(entry, ram('ReasonCode')),
    base: text(entry, ram('BasisAmount')),
  });

  return {
    syntax: 'cii',
    ...writtenCodes(root, CII_CODE_SITES),
    creditNote: false,
    specification: text(
      root,
      rsm('ExchangedDocumentContext'),
      ram('GuidelineSpecifiedDocumentContextParameter'),
      ram('ID'),
    ),
    profile: text(
      root,
      rsm('ExchangedDocumentContext'),
      ram('BusinessProcessSpecifiedDocumentContextParameter'),
      ram('ID'),
    ),
    buyerReference: text(agreement, ram('BuyerReference')),
    orderReference: text(agreement, ram('BuyerOrderReferencedDocument'), ram('IssuerAssignedID')),
    notes: all(document, 'IncludedNote').map((note) => text(note, ram('Content')) ?? ''),
    number: text(document, ram('ID')),
    issueDate: date(childOf(document, ...ram('IssueDateTime'))),
    typeCode: text(document, ram('TypeCode')),
    currency,
    taxCurrency,
    taxPointDate: taxes.map((tax) => date(childOf(tax, ...ram('TaxPointDate')))).find(Boolean) ?? null,
    taxPointDateCode: taxes.map((tax) => text(tax, ram('DueDateTypeCode'))).find(Boolean) ?? null,
    dueDate:
      all(settlement, 'SpecifiedTradePaymentTerms')
        .map((terms) => date(childOf(terms, ...ram('DueDateDateTime'))))
        .find(Boolean) ?? null,
    paymentTerms: terms.map((entry) => text(entry, ram('Description'))).find(Boolean) ?? null,
    paymentTermsText: childOf(terms[0], ...ram('Description'))?.text ?? null,
    directDebit:
      mandateId || creditorId || debitedAccount ? { mandate: mandateId, creditorId, debitedAccount } : undefined,
    precedingInvoices: all(settlement, 'InvoiceReferencedDocument').map((entry) => ({
      number: text(entry, ram('IssuerAssignedID')),
    })),
    seller: party(childOf(agreement, ...ram('SellerTradeParty'))),
    buyer: party(childOf(agreement, ...ram('BuyerTradeParty'))),
    payee: payee && { name: text(payee, ram('Name')) },
    taxRepresentative: taxRepresentative && {
      name: text(taxRepresentative, ram('Name')),
      vatId: text(taxRepresentative, ram('SpecifiedTaxRegistration'), ram('ID')),
      address: address(childOf(taxRepresentative, ...ram('PostalTradeAddress'))),
    },
    delivery: delivery && {
      date: date(pathOf(delivery, ram('ActualDeliverySupplyChainEvent'), ram('OccurrenceDateTime'))),
      address: address(childOf(shipTo, ...ram('PostalTradeAddress'))),
    },
    period: period(childOf(settlement, ...ram('BillingSpecifiedPeriod'))),
    paymentMeans: means.map((entry) => ({
      code: text(entry, ram('TypeCode')),
      creditTransfers: all(entry, 'PayeePartyCreditorFinancialAccount').map((account) => ({
        account: text(account, ram('IBANID')) ?? text(account, ram('ProprietaryID')),
      })),
      cardNumber: text(entry, ram('ApplicableTradeSettlementFinancialCard'), ram('ID')),
      card: childOf(entry, ...ram('ApplicableTradeSettlementFinancialCard')) !== undefined,
      // CII has no element for BG-19: a debtor account in this instruction is its direct debit.
      mandate: childOf(entry, ...ram('PayerPartyDebtorFinancialAccount')) && {
        id: mandateId,
        account: text(entry, ram('PayerPartyDebtorFinancialAccount'), ram('IBANID')),
      },
    })),
    allowancesCharges: all(settlement, 'SpecifiedTradeAllowanceCharge').map((entry) => ({
      ...allowanceCharge(entry),
      category: text(entry, ram('CategoryTradeTax'), ram('CategoryCode')),
      rate: text(entry, ram('CategoryTradeTax'), ram('RateApplicablePercent')),
    })),
    totals: summation && {
      lineTotal: sum('LineTotalAmount'),
      allowanceTotal: sum('AllowanceTotalAmount'),
      chargeTotal: sum('ChargeTotalAmount'),
      withoutVat: sum('TaxBasisTotalAmount'),
      withVat: sum('GrandTotalAmount'),
      prepaid: sum('TotalPrepaidAmount'),
      rounding: sum('RoundingAmount'),
      payable: sum('DuePayableAmount'),
    },
    taxTotals: taxTotals
      .filter((total) => (total.attributes.currencyID ?? currency) === currency)
      .map((total) => textOf(total) ?? ''),
    taxTotalAccounting: taxCurrency && taxCurrency !== currency ? taxTotalIn(taxCurrency) : null,
    vatBreakdown: taxes.map((tax) => ({
      taxable: text(tax, ram('BasisAmount')),
      tax: text(tax, ram('CalculatedAmount')),
      category: text(tax, ram('CategoryCode')),
      rate: text(tax, ram('RateApplicablePercent')),
      exemptionReason: text(tax, ram('ExemptionReason')),
      exemptionCode: text(tax, ram('ExemptionReasonCode')),
    })),
    supportingDocuments: all(agreement, 'AdditionalReferencedDocument')
      .filter((entry) => text(entry, ram('TypeCode')) === '916')
      .map((entry) => ({
        reference: text(entry, ram('IssuerAssignedID')),
        mimeCode: childOf(entry, ...ram('AttachmentBinaryObject'))?.attributes.mimeCode ?? null,
        filename: childOf(entry, ...ram('AttachmentBinaryObject'))?.attributes.filename ?? null,
      })),
    amountCurrencies: currenciesIn(root),
    itemCategories: all(transaction, 'IncludedSupplyChainTradeLineItem')
      .map((line) => text(line, ram('SpecifiedLineTradeSettlement'), ram('ApplicableTradeTax'), ram('CategoryCode')))
      .filter((value): value is string => value !== null),
    lines: all(transaction, 'IncludedSupplyChainTradeLineItem').map((line) => {
      const product = childOf(line, ...ram('SpecifiedTradeProduct'));
      const lineAgreement = childOf(line, ...ram('SpecifiedLineTradeAgreement'));
      const lineSettlement = childOf(line, ...ram('SpecifiedLineTradeSettlement'));
      const quantity = pathOf(line, ram('SpecifiedLineTradeDelivery'), ram('BilledQuantity'));
      return {
        id: text(line, ram('AssociatedDocumentLineDocument'), ram('LineID')),
        quantity: textOf(quantity),
        unitCode: quantity ? (quantity.attributes.unitCode ?? null) : null,
        netAmount: text(lineSettlement, ram('SpecifiedTradeSettlementLineMonetarySummation'), ram('LineTotalAmount')),
        period: period(childOf(lineSettlement, ...ram('BillingSpecifiedPeriod'))),
        allowancesCharges: all(lineSettlement, 'SpecifiedTradeAllowanceCharge').map(allowanceCharge),
        netPrice: text(lineAgreement, ram('NetPriceProductTradePrice'), ram('ChargeAmount')),
        grossPrice: text(lineAgreement, ram('GrossPriceProductTradePrice'), ram('ChargeAmount')),
        priceDiscount: text(
          lineAgreement,
          ram('GrossPriceProductTradePrice'),
          ram('AppliedTradeAllowanceCharge'),
          ram('ActualAmount'),
        ),
        priceAllowanceIndicator: indicatorOf(
          pathOf(lineAgreement, ram('GrossPriceProductTradePrice'), ram('AppliedTradeAllowanceCharge')),
        ),
        baseQuantity: text(lineAgreement, ram('NetPriceProductTradePrice'), ram('BasisQuantity')),
        baseQuantityUnit:
          pathOf(lineAgreement, ram('NetPriceProductTradePrice'), ram('BasisQuantity'))?.attributes.unitCode ?? null,
        category: text(lineSettlement, ram('ApplicableTradeTax'), ram('CategoryCode')),
        rate: text(lineSettlement, ram('ApplicableTradeTax'), ram('RateApplicablePercent')),
        itemName: text(product, ram('Name')),
        standardIds: all(product, 'GlobalID').map((id) => ({
          value: textOf(id),
          scheme: id.attributes.schemeID ?? null,
        })),
        classifications: all(product, 'DesignatedProductClassification').map((entry) => {
          const code = childOf(entry, ...ram('ClassCode'));
          return { value: textOf(code), scheme: code?.attributes.listID ?? null };
        }),
        originCountry: text(product, ram('OriginTradeCountry'), ram('ID')),
        attributes: all(product, 'ApplicableProductCharacteristic').map((entry) => ({
          name: text(entry, ram('Description')),
          value: text(entry, ram('Value')),
        })),
      };
    }),
  };
}
