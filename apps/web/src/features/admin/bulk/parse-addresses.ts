import { normalizeEmail } from '@portal/contract';
import Papa from 'papaparse';

const HEADER_NAME = /^(e-?mail|e-?mail address|email_address|user ?id)$/i;
const SEPARATORS = [',', ';', '\t'];
const ANY_SEPARATOR = /[,;\t]/;

/**
 * The rows of `text` as CSV, quotes honoured, so `"Doe, Jane",jane@x.com` (as Outlook and Excel export
 * it) stays two fields. The separator is the one the parser guesses, or else the first that leaves no
 * quote unbalanced: a pasted `"Jane <jane@x.com>"; john@x.com` is semicolon-separated.
 */
function readRows(text: string): string[][] {
  const normalized = text.replace(/\r\n?/g, '\n');
  const parse = (delimiter?: string) =>
    Papa.parse<string[]>(normalized, { delimiter, delimitersToGuess: SEPARATORS, skipEmptyLines: true });
  const guessed = parse();
  const quotesBalanced = (result: Papa.ParseResult<string[]>) =>
    !result.errors.some((error) => error.type === 'Quotes');
  if (quotesBalanced(guessed)) return guessed.data;
  for (const delimiter of SEPARATORS) {
    const result = parse(delimiter);
    if (quotesBalanced(result)) return result.data;
  }
  return guessed.data;
}

/**
 * `Jane Doe <jane@example.com>` (as mail programs copy it) → `jane@example.com`; separators left at either end
 * (`jane@example.com;` on a line of its own, as a list copied from a mail's To field ends) are not part of it.
 */
function cleanField(field: string): string {
  const trimmed = field.replace(/^[\s,;]+|[\s,;]+$/g, '');
  const bracketed = /<([^<>]*)>\s*$/.exec(trimmed);
  return (bracketed?.[1] ?? trimmed).trim();
}

/**
 * A field with exactly one `@` is one address, perhaps behind a name holding a separator; any other field
 * is split further, as a list typed with mixed separators (`a@x.com;b@x.com`) or stray separators.
 */
const splitList = (field: string): string[] => (field.split('@').length === 2 ? [field] : field.split(ANY_SEPARATOR));

/**
 * The candidate addresses in pasted text or a CSV file: separated by new lines, commas, semicolons or
 * tabs. A CSV whose first line names an e-mail column contributes that column only, so other columns
 * (names, departments) are not mistaken for addresses. Duplicates are dropped, keeping the first.
 */
export function parseAddresses(text: string): string[] {
  const rows = readRows(text);
  const column = (rows[0] ?? []).findIndex((field) => HEADER_NAME.test(field.trim()));
  const fields =
    column >= 0 ? rows.slice(1).map((row) => row[column] ?? '') : rows.flat().flatMap((field) => splitList(field));

  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const field of fields.map(cleanField)) {
    const key = normalizeEmail(field);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    addresses.push(field);
  }
  return addresses;
}
