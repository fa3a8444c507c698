import { textOf, type XmlElement } from '../xml-tree.ts';
import type { SemanticInvoice, WrittenCodes } from './semantic-model.ts';

/**
 * Where a syntax writes one kind of scheme identifier or code. A code-list rule checks every one written,
 * wherever it stands (as the standard's syntax bindings place each list), not only the one a term maps.
 */
export interface CodeSite {
  kind: keyof WrittenCodes;
  /** The element's local names. */
  locals: string[];
  /** Its parent's local names, when only some parents count. */
  parents?: string[];
  /** An ancestor that rules the element out. */
  notUnder?: string[];
  /** Another condition on the parent (the invoiced object is an `AdditionalDocumentReference` coded 130). */
  parentWhen?: (parent: XmlElement) => boolean;
  /** The attribute holding the code; without it, the element's text. Absent attribute: nothing written. */
  attribute?: string;
}

const emptyCodes = (): WrittenCodes => ({
  objectSchemes: [],
  noteSubjects: [],
  partySchemes: [],
  registrationSchemes: [],
  classificationSchemes: [],
  itemSchemes: [],
  exemptionCodes: [],
  unitCodes: [],
  endpointSchemes: [],
  deliverySchemes: [],
});

/** Every element below the root, with its ancestors (the root first, the parent last). */
export function walk(root: XmlElement, visit: (element: XmlElement, ancestors: XmlElement[]) => void): void {
  const ancestors: XmlElement[] = [];
  const descend = (element: XmlElement) => {
    visit(element, ancestors);
    ancestors.push(element);
    // Indexed, not for…of: an iterator for each of a large document's hundreds of thousands of elements is
    // garbage enough to raise the reader's peak memory.
    const { children } = element;
    for (let index = 0; index < children.length; index += 1) descend(children[index]!);
    ancestors.pop();
  };
  descend(root);
}

function matches(site: CodeSite, element: XmlElement, ancestors: XmlElement[]): boolean {
  if (!site.locals.includes(element.local)) return false;
  const parent = ancestors[ancestors.length - 1];
  if (site.parents && (!parent || !site.parents.includes(parent.local))) return false;
  if (site.parentWhen && (!parent || !site.parentWhen(parent))) return false;
  return !site.notUnder?.some((local) => ancestors.some((ancestor) => ancestor.local === local));
}

/** The kinds whose scheme belongs with the identifier's value, for the identifier format rules. */
const IDENTIFIER_KINDS = new Set<keyof WrittenCodes>(['partySchemes', 'registrationSchemes', 'endpointSchemes']);

/**
 * In one walk: the codes a document writes at each site (trimmed), every identifier written with its scheme,
 * and every element left empty.
 */
export function writtenCodes(
  root: XmlElement,
  sites: readonly CodeSite[],
): Pick<SemanticInvoice, 'written' | 'schemedIdentifiers' | 'emptyElements'> {
  const written = emptyCodes();
  const schemedIdentifiers: SemanticInvoice['schemedIdentifiers'] = [];
  const emptyElements: string[] = [];
  walk(root, (element, ancestors) => {
    if (element.children.length === 0 && element.text.trim() === '') emptyElements.push(element.local);
    for (let index = 0; index < sites.length; index += 1) {
      const site = sites[index]!;
      if (!matches(site, element, ancestors)) continue;
      const value = site.attribute ? element.attributes[site.attribute] : (textOf(element) ?? '');
      if (value === undefined) continue;
      written[site.kind].push(value.trim());
      if (IDENTIFIER_KINDS.has(site.kind))
        schemedIdentifiers.push({ scheme: value.trim(), value: element.text.trim() });
    }
  });
  return { written, schemedIdentifiers, emptyElements };
}

/** Where UBL writes them (EN 16931's UBL binding). */
export const UBL_CODE_SITES: readonly CodeSite[] = [
  {
    kind: 'objectSchemes',
    locals: ['ID'],
    parents: ['AdditionalDocumentReference', 'DocumentReference'],
    parentWhen: (parent) => textOf(parent.children.find((child) => child.local === 'DocumentTypeCode')) === '130',
    attribute: 'schemeID',
  },
  { kind: 'partySchemes', locals: ['ID'], parents: ['PartyIdentification'], attribute: 'schemeID' },
  { kind: 'registrationSchemes', locals: ['CompanyID'], parents: ['PartyLegalEntity'], attribute: 'schemeID' },
  {
    kind: 'classificationSchemes',
    locals: ['ItemClassificationCode'],
    parents: ['CommodityClassification'],
    attribute: 'listID',
  },
  { kind: 'itemSchemes', locals: ['ID'], parents: ['StandardItemIdentification'], attribute: 'schemeID' },
  { kind: 'exemptionCodes', locals: ['TaxExemptionReasonCode'] },
  { kind: 'unitCodes', locals: ['InvoicedQuantity', 'CreditedQuantity', 'BaseQuantity'], attribute: 'unitCode' },
  { kind: 'endpointSchemes', locals: ['EndpointID'], attribute: 'schemeID' },
  { kind: 'deliverySchemes', locals: ['ID'], parents: ['DeliveryLocation'], attribute: 'schemeID' },
];

/** Where CII writes them (EN 16931's CII binding). */
export const CII_CODE_SITES: readonly CodeSite[] = [
  { kind: 'objectSchemes', locals: ['ReferenceTypeCode'] },
  { kind: 'noteSubjects', locals: ['SubjectCode'] },
  {
    kind: 'partySchemes',
    locals: ['GlobalID'],
    notUnder: ['SpecifiedTradeProduct', 'ShipToTradeParty'],
    attribute: 'schemeID',
  },
  { kind: 'registrationSchemes', locals: ['ID'], notUnder: ['SpecifiedTaxRegistration'], attribute: 'schemeID' },
  { kind: 'classificationSchemes', locals: ['ClassCode'], attribute: 'listID' },
  { kind: 'itemSchemes', locals: ['GlobalID'], parents: ['SpecifiedTradeProduct'], attribute: 'schemeID' },
  { kind: 'exemptionCodes', locals: ['ExemptionReasonCode'] },
  { kind: 'unitCodes', locals: ['BilledQuantity', 'BasisQuantity'], attribute: 'unitCode' },
  { kind: 'endpointSchemes', locals: ['URIID'], parents: ['URIUniversalCommunication'], attribute: 'schemeID' },
  { kind: 'deliverySchemes', locals: ['GlobalID'], parents: ['ShipToTradeParty'], attribute: 'schemeID' },
];
