import type { EInvoiceContent, EInvoiceParty } from './model.ts';
import { distinctAccounts } from './iban.ts';
import { childOf, childrenOf, isTrue, pathOf, textOf, type XmlElement } from './xml-tree.ts';

/** UN/CEFACT Cross Industry Invoice D16B, as used by Factur-X / ZUGFeRD 2.x and XRechnung CII. */
export const CII_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;

const rsm = (local: string): [string, string] => [CII_NS.rsm, local];
const ram = (local: string): [string, string] => [CII_NS.ram, local];

export function isCiiRoot(root: XmlElement): boolean {
  return root.ns === CII_NS.rsm && root.local === 'CrossIndustryInvoice';
}

/** A udt:DateTimeString in format 102 (`YYYYMMDD`, the only one EN 16931 allows) as `YYYY-MM-DD`. */
function ciiDate(container: XmlElement | undefined): string | null {
  const dateTime = childOf(container, CII_NS.udt, 'DateTimeString');
  const value = textOf(dateTime);
  if (!value) return null;
  const format = dateTime?.attributes.format ?? '102';
  if (format !== '102' || value.length !== 8 || !/^\d{8}$/.test(value)) return null;
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

function party(element: XmlElement | undefined): EInvoiceParty {
  const registrations = childrenOf(element, CII_NS.ram, 'SpecifiedTaxRegistration').map((registration) =>
    childOf(registration, CII_NS.ram, 'ID'),
  );
  // BT-31 is the registration with scheme VA (VAT); FC is a tax number, not a VAT id.
  const vat = registrations.find((id) => id?.attributes.schemeID === 'VA');
  const address = childOf(element, CII_NS.ram, 'PostalTradeAddress');
  const line = (local: string) => textOf(childOf(address, CII_NS.ram, local));
  const cityLine = [line('PostcodeCode'), line('CityName')].filter(Boolean).join(' ');
  return {
    name: textOf(childOf(element, CII_NS.ram, 'Name')),
    vatId: textOf(vat),
    address: [line('LineOne'), line('LineTwo'), line('LineThree'), cityLine || null, line('CountryID')].filter(
      (value): value is string => value !== null,
    ),
  };
}

/**
 * Maps a CII invoice onto the EN 16931 terms (BT numbers as in the standard's CII syntax binding). Only
 * reads: anything missing is null, since the lighter Factur-X profiles leave most terms out.
 */
export function readCii(root: XmlElement): EInvoiceContent {
  const context = childOf(root, ...rsm('ExchangedDocumentContext'));
  const document = childOf(root, ...rsm('ExchangedDocument'));
  const transaction = childOf(root, ...rsm('SupplyChainTradeTransaction'));
  const agreement = childOf(transaction, ...ram('ApplicableHeaderTradeAgreement'));
  const settlement = childOf(transaction, ...ram('ApplicableHeaderTradeSettlement'));
  const summation = childOf(settlement, ...ram('SpecifiedTradeSettlementHeaderMonetarySummation'));
  const currency = textOf(childOf(settlement, ...ram('InvoiceCurrencyCode')));
  const allMeans = childrenOf(settlement, ...ram('SpecifiedTradeSettlementPaymentMeans'));
  const means = allMeans[0];
  const accountOf = (entry: XmlElement | undefined) => childOf(entry, ...ram('PayeePartyCreditorFinancialAccount'));
  const accountIdOf = (entry: XmlElement | undefined) =>
    textOf(childOf(accountOf(entry), ...ram('IBANID'))) ?? textOf(childOf(accountOf(entry), ...ram('ProprietaryID')));
  const account = accountOf(means);
  const terms = childOf(settlement, ...ram('SpecifiedTradePaymentTerms'));
  const seller = party(childOf(agreement, ...ram('SellerTradeParty')));
  const buyer = party(childOf(agreement, ...ram('BuyerTradeParty')));
  const lineItems = childrenOf(transaction, ...ram('IncludedSupplyChainTradeLineItem'));
  const sum = (local: string) => textOf(childOf(summation, ...ram(local)));

  // BT-110 is the tax total in the invoice currency; a second one (BT-111) may be in the accounting currency.
  const taxTotals = childrenOf(summation, ...ram('TaxTotalAmount'));
  const totalTax =
    textOf(taxTotals.find((total) => total.attributes.currencyID === currency)) ??
    textOf(taxTotals.find((total) => total.attributes.currencyID === undefined)) ??
    (taxTotals.length === 1 ? textOf(taxTotals[0]) : null);

  return {
    syntax: 'cii',
    facts: {
      profile: textOf(pathOf(context, ram('GuidelineSpecifiedDocumentContextParameter'), ram('ID'))),
      invoiceNumber: textOf(childOf(document, ...ram('ID'))),
      typeCode: textOf(childOf(document, ...ram('TypeCode'))),
      issueDate: ciiDate(childOf(document, ...ram('IssueDateTime'))),
      dueDate: ciiDate(childOf(terms, ...ram('DueDateDateTime'))),
      currency,
      sellerName: seller.name,
      sellerVatId: seller.vatId,
      buyerName: buyer.name,
      buyerReference: textOf(childOf(agreement, ...ram('BuyerReference'))),
      totalNet: sum('TaxBasisTotalAmount'),
      totalTax,
      totalGross: sum('GrandTotalAmount'),
      amountDue: sum('DuePayableAmount'),
      iban: accountIdOf(means),
      paymentAccounts: distinctAccounts(allMeans.map(accountIdOf)),
      // BG-25 only: a sub-line (ZUGFeRD/Factur-X EXTENDED, XRechnung's BG-DEX-01) names its parent line and is
      // part of it, as UBL nests it inside its line; counting it here would count one invoice two ways.
      lineCount: lineItems.filter(
        (item) => textOf(pathOf(item, ram('AssociatedDocumentLineDocument'), ram('ParentLineID'))) === null,
      ).length,
    },
    seller,
    buyer,
    lines: lineItems.map((item) => {
      const agreementOfLine = childOf(item, ...ram('SpecifiedLineTradeAgreement'));
      const quantity = pathOf(item, ram('SpecifiedLineTradeDelivery'), ram('BilledQuantity'));
      return {
        id: textOf(pathOf(item, ram('AssociatedDocumentLineDocument'), ram('LineID'))),
        name: textOf(pathOf(item, ram('SpecifiedTradeProduct'), ram('Name'))),
        quantity: textOf(quantity),
        unitCode: quantity?.attributes.unitCode ?? null,
        netPrice: textOf(pathOf(agreementOfLine, ram('NetPriceProductTradePrice'), ram('ChargeAmount'))),
        netAmount: textOf(
          pathOf(
            item,
            ram('SpecifiedLineTradeSettlement'),
            ram('SpecifiedTradeSettlementLineMonetarySummation'),
            ram('LineTotalAmount'),
          ),
        ),
      };
    }),
    vatBreakdown: childrenOf(settlement, ...ram('ApplicableTradeTax')).map((tax) => ({
      category: textOf(childOf(tax, ...ram('CategoryCode'))),
      rate: textOf(childOf(tax, ...ram('RateApplicablePercent'))),
      taxableAmount: textOf(childOf(tax, ...ram('BasisAmount'))),
      taxAmount: textOf(childOf(tax, ...ram('CalculatedAmount'))),
    })),
    allowancesCharges: childrenOf(settlement, ...ram('SpecifiedTradeAllowanceCharge')).map((entry) => ({
      charge: isTrue(textOf(pathOf(entry, ram('ChargeIndicator'), [CII_NS.udt, 'Indicator']))),
      amount: textOf(childOf(entry, ...ram('ActualAmount'))),
      reason: textOf(childOf(entry, ...ram('Reason'))),
    })),
    lineTotal: sum('LineTotalAmount'),
    allowanceTotal: sum('AllowanceTotalAmount'),
    chargeTotal: sum('ChargeTotalAmount'),
    prepaid: sum('TotalPrepaidAmount'),
    payment: {
      meansCode: textOf(childOf(means, ...ram('TypeCode'))),
      accountName: textOf(childOf(account, ...ram('AccountName'))),
      bic: textOf(pathOf(means, ram('PayeeSpecifiedCreditorFinancialInstitution'), ram('BICID'))),
      reference: textOf(childOf(settlement, ...ram('PaymentReference'))),
      terms: textOf(childOf(terms, ...ram('Description'))),
    },
    notes: childrenOf(document, ...ram('IncludedNote'))
      .map((note) => textOf(childOf(note, ...ram('Content'))))
      .filter((note): note is string => note !== null),
  };
}
