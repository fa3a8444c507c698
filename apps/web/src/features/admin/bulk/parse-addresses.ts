import { normalizeEmail } from '@portal/contract';

/** One run stays within what an admin can review and the browser can report on. */
export const MAX_BULK_ADDRESSES = 1000;

const HEADER_NAME = /^(e-?mail|e-?mail address|email_address|user ?id)$/i;
const FIELD_SEPARATOR = /[,;\t]/;

/** `"Jane Doe <jane@example.com>"` (as mail programs copy it) → `jane@example.com`; quotes stripped. */
function cleanField(field: string): string {
  const unquoted = field
    .trim()
    .replace(/^"(.*)"$/s, '$1')
    .trim();
  const bracketed = /<([^<>]*)>\s*$/.exec(unquoted);
  return (bracketed?.[1] ?? unquoted).trim();
}

/**
 * The candidate addresses in pasted text or a CSV file: separated by new lines, commas, semicolons or
 * tabs. A CSV whose first line names an e-mail column contributes that column only, so other columns
 * (names, departments) are not mistaken for addresses. Duplicates are dropped, keeping the first.
 */
export function parseAddresses(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.split(FIELD_SEPARATOR).map(cleanField));
  const header = lines[0] ?? [];
  const column = header.findIndex((field) => HEADER_NAME.test(field));
  const fields = column >= 0 ? lines.slice(1).map((line) => line[column] ?? '') : lines.flat();

  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const field of fields) {
    const key = normalizeEmail(field);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    addresses.push(field);
  }
  return addresses;
}
