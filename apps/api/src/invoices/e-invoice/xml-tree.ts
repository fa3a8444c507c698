import { SaxesParser, type SaxesTagNS } from 'saxes';

/** One element of a parsed document, by namespace URI and local name (prefixes differ between senders). */
export interface XmlElement {
  ns: string;
  local: string;
  /** Unqualified attributes only (`currencyID`, `schemeID`, `format`): the ones e-invoices carry. */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (text and CDATA), untrimmed. */
  text: string;
}

export interface XmlLimits {
  /** Characters of the whole document. */
  maxChars: number;
  /** Nesting depth: CII reaches about 12, UBL about 10. */
  maxDepth: number;
  /** Elements in the whole document. */
  maxElements: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxChars: 10 * 1024 * 1024, maxDepth: 64, maxElements: 500_000 };

/** The document is not XML this reader accepts; the message says what and where, for the sender. */
export class XmlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlRefusedError';
  }
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Attributes on one element, namespace declarations included: an e-invoice's root declares about ten, its
 * other elements carry one or two. Counted as saxes reads them, so a tag with a million attributes is
 * refused at the limit instead of being read whole first (seconds of CPU for a few megabytes).
 */
const MAX_ATTRIBUTES = 256;

/**
 * Bytes to text. EN 16931 syntaxes are UTF-8; a UTF-16 file with its byte-order mark is read too. Anything
 * that is not valid in that encoding is refused rather than guessed at.
 */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode('utf-16be', bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode('utf-16le', bytes.subarray(2));
  const bom = UTF8_BOM.every((byte, index) => bytes[index] === byte);
  return decode('utf-8', bom ? bytes.subarray(3) : bytes);
}

function decode(encoding: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new XmlRefusedError(`The XML is not valid ${encoding.toUpperCase()} text (e-invoices are UTF-8).`);
  }
}

/**
 * Parses an e-invoice with saxes, a strict, namespace-aware, non-validating parser that never fetches
 * anything and knows only the five predefined entities. On top of that a document type declaration is
 * refused outright (no DTD, so no entity can be declared, expanded or loaded), and size, depth and
 * element count are bounded, so a hostile file costs at most one pass over its bytes.
 */
export function parseXml(text: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  if (text.length > limits.maxChars) {
    throw new XmlRefusedError(`The XML is larger than the limit of ${limits.maxChars} characters.`);
  }
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  let refusal: XmlRefusedError | undefined;
  const where = () => `line ${parser.line}, column ${parser.column}`;
  const refuse = (message: string) => {
    refusal ??= new XmlRefusedError(message);
    // Throwing from a handler stops saxes at once: nothing after the refusal is read.
    throw refusal;
  };

  parser.on('doctype', () =>
    refuse(
      `The XML has a document type declaration (DOCTYPE, ending at ${where()}); e-invoices have none and it is refused.`,
    ),
  );
  parser.on('xmldecl', (declaration) => {
    const encoding = declaration.encoding?.toLowerCase();
    if (encoding && !['utf-8', 'utf8', 'utf-16', 'utf16'].includes(encoding)) {
      refuse(`The XML declares the encoding "${declaration.encoding}"; e-invoices are UTF-8.`);
    }
  });
  let attributes = 0;
  parser.on('opentagstart', () => {
    attributes = 0;
  });
  parser.on('attribute', () => {
    attributes += 1;
    if (attributes > MAX_ATTRIBUTES)
      refuse(`The XML has an element with more than ${MAX_ATTRIBUTES} attributes (at ${where()}).`);
  });
  parser.on('opentag', (tag) => {
    elements += 1;
    if (elements > limits.maxElements) refuse(`The XML has more than ${limits.maxElements} elements.`);
    if (stack.length >= limits.maxDepth) {
      refuse(`The XML nests elements deeper than ${limits.maxDepth} levels (at ${where()}).`);
    }
    const element = toElement(tag as SaxesTagNS);
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const appendText = (value: string) => {
    const current = stack.at(-1);
    if (current) current.text += value;
  };
  parser.on('text', appendText);
  parser.on('cdata', appendText);
  parser.on('error', (error) => {
    refuse(`The XML is not well-formed: ${describeSaxesError(error.message)}`);
  });

  try {
    parser.write(text).close();
  } catch (error) {
    if (refusal) throw refusal;
    throw error;
  }
  if (!root) throw new XmlRefusedError('The XML has no root element.');
  return root;
}

function toElement(tag: SaxesTagNS): XmlElement {
  const attributes: Record<string, string> = {};
  for (const attribute of Object.values(tag.attributes)) {
    if (attribute.uri === '' && attribute.prefix === '') attributes[attribute.local] = attribute.value;
  }
  return { ns: tag.uri, local: tag.local, attributes, children: [], text: '' };
}

/** saxes prefixes its messages with `<file>:line:column: `; ours says it in words. */
function describeSaxesError(message: string): string {
  const match = /^(?:[^:]*:)?(\d+):(\d+): (.*)$/s.exec(message);
  return match ? `${match[3]} (line ${match[1]}, column ${match[2]})` : message;
}

/** The first child with this namespace and local name. */
export function childOf(element: XmlElement | undefined, ns: string, local: string): XmlElement | undefined {
  return element?.children.find((child) => child.ns === ns && child.local === local);
}

export function childrenOf(element: XmlElement | undefined, ns: string, local: string): XmlElement[] {
  return element?.children.filter((child) => child.ns === ns && child.local === local) ?? [];
}

/** Follows a path of [namespace, local name] steps through first children. */
export function pathOf(element: XmlElement | undefined, ...steps: [string, string][]): XmlElement | undefined {
  let current = element;
  for (const [ns, local] of steps) current = childOf(current, ns, local);
  return current;
}

/** The element's text, trimmed; null when the element is absent or empty. */
export function textOf(element: XmlElement | undefined): string | null {
  const value = element?.text.trim();
  return value ? value : null;
}

/** xsd:boolean: `true` or `1`. */
export const isTrue = (value: string | null) => value === 'true' || value === '1';
