import { hasValidIbanChecksum, ibanLengthOf, normalAccount } from './iban.ts';

/**
 * The bank accounts a page of text shows a person, however it is laid out: an IBAN printed in groups, cut
 * across lines or table cells, or spaced out letter by letter, and the account numbers that are not IBANs.
 * Each account found is one string, its key, in the form it is compared and stored in:
 *
 * - an IBAN (ISO 13616, its country's length and a valid mod-97 check), in normal form: `DE02120300000000202051`;
 * - a UK sort code with its account number, both labelled (`Sort code 60-16-13 … Account number 31926819`):
 *   `SORT CODE 601613 ACCOUNT 31926819`;
 * - another account number, labelled as one ("Account No.", "Kontonummer", "N° de compte" …, 5 to 20
 *   digits) where a bank is named beside it (a BIC/SWIFT or routing code, "bank", "IBAN", "BLZ" …, so a
 *   customer number is not taken for it): `ACCOUNT 123456789`, or `ACCOUNT CHASUS33 123456789` when a
 *   labelled BIC or routing number stands beside it (the same number at another bank is another account).
 *
 * A sort code and account, or an account number, that an IBAN on the same page already holds is that IBAN,
 * not a second account (UK and German IBANs carry them whole).
 */

/** A key this reader made for an account that is not an IBAN: its digits, and the bank code beside them. */
function domesticOf(key: string): { digits: string; account: string; bank: string | null } | null {
  const sortCode = /^SORT CODE (\d{6}) ACCOUNT (\d+)$/.exec(key);
  if (sortCode) return { digits: `${sortCode[1]}${sortCode[2]}`, account: sortCode[2]!, bank: sortCode[1]! };
  const labelled = /^ACCOUNT (?:(\S+) )?(\d+)$/.exec(key);
  return labelled ? { digits: labelled[2]!, account: labelled[2]!, bank: labelled[1] ?? null } : null;
}

/**
 * Whether two accounts are one: the same key, or a sort code and account, or an account number, that the
 * other (an IBAN, or an account id as an e-invoice writes it) holds whole. Two account numbers are one when
 * their digits are, and their banks too where both name one.
 */
export function sameAccount(a: string, b: string): boolean {
  if (normalAccount(a) === normalAccount(b)) return true;
  const [domesticA, domesticB] = [domesticOf(a), domesticOf(b)];
  if (domesticA && domesticB) {
    // A sort code is the bank's code: an account number without one is the same account at any bank.
    const banks = domesticA.bank && domesticB.bank ? domesticA.bank === domesticB.bank : true;
    return domesticA.account === domesticB.account && banks;
  }
  const domestic = domesticA ?? domesticB;
  const other = normalAccount(domesticA ? b : a).replace(/[^A-Z0-9]/g, '');
  return domestic !== null && domestic.digits.length >= 6 && other.includes(domestic.digits);
}

/** Whether every account of each list is one of the other's: the same accounts, however each is written. */
export function sameAccounts(a: string[], b: string[]): boolean {
  return a.every((x) => b.some((y) => sameAccount(x, y))) && b.every((y) => a.some((x) => sameAccount(x, y)));
}

/** The accounts `text` shows, each once, in the order they appear. */
export function accountsIn(text: string): string[] {
  const ibans = ibansAcrossLayout(text);
  const found = [...ibans];
  const add = (key: string) => {
    if (!found.some((known) => sameAccount(known, key))) found.push(key);
  };
  for (const key of sortCodeAccounts(text)) add(key);
  for (const key of labelledAccounts(text)) add(key);
  return found;
}

/** What parts a page's words: white space of any kind, and the punctuation a label or a table puts between them. */
const SPACE = /[\s\u00a0\u200b:;,|()[\]]+/;

/**
 * IBANs whose characters are parted by any white space (spaces, line breaks, the gap between two table
 * cells, one character per text item): the text is cut into its alphanumeric tokens (punctuation around a
 * token, `IBAN:` or a trailing comma, falls away) and each token that starts with a country code and check
 * digits, or is one or two letters (spaced out one by one), is joined to the tokens after it until its
 * country's length; without an "IBAN" label just before, only pieces of up to four characters are joined.
 */
function ibansAcrossLayout(text: string): string[] {
  const tokens = text
    .toUpperCase()
    .split(SPACE)
    .map((token) => token.replace(/^[^A-Z0-9]+|[^A-Z0-9]+$/g, ''))
    .filter((token) => token.length > 0);
  const found = new Set<string>();
  tokens.forEach((token, start) => {
    // Joined, so that a label spaced out letter by letter ("I B A N") is read as one.
    const labelled = /IBAN/.test(tokens.slice(Math.max(0, start - 4), start).join(''));
    // A token may carry the start of an IBAN after a glued label ("IBAN:DE02…" becomes one token).
    const offsets = [0, ...[...token.matchAll(/(?<=IBAN)[A-Z]{2}/g)].map((match) => match.index)];
    for (const offset of offsets) {
      const head = token.slice(offset);
      if (!/^[A-Z]{2}\d/.test(head) && !/^[A-Z]{1,2}$/.test(head)) continue;
      let candidate = head;
      for (let next = start + 1; next < tokens.length && candidate.length < 34; next += 1) {
        const length = ibanLengthOf(candidate);
        if (length !== undefined && candidate.length >= length) break;
        const piece = tokens[next]!;
        // Unlabelled, only pieces as an IBAN is printed (groups of four, or one character at a time) are
        // joined: longer words and numbers side by side in a table are not one account.
        if (!/^[A-Z0-9]+$/.test(piece) || (!labelled && piece.length > 4)) break;
        candidate += piece;
      }
      const length = ibanLengthOf(candidate);
      if (length === undefined || candidate.length < length) continue;
      // Only whole tokens: an IBAN that would end inside a word is not one a person reads.
      const iban = candidate.slice(0, length);
      if (candidate.length !== length && !/^[A-Z]/.test(candidate.slice(length))) continue;
      if (hasValidIbanChecksum(iban)) found.add(iban);
    }
  });
  return [...found];
}

/** White space of any kind as one space: the labels and numbers below are read across line and cell breaks. */
const flat = (text: string) => text.replace(/[\s\u00a0\u200b]+/g, ' ');

const DIGIT_GROUPS = (min: number, max: number) => `\\d(?:[ -]?\\d){${min - 1},${max - 1}}`;
const SORT_CODE = new RegExp(`\\b(?:sort[ -]?code|s/c)\\b[ .:#]*(\\d{2})[ -]?(\\d{2})[ -]?(\\d{2})\\b`, 'gi');
const ACCOUNT_LABEL =
  '(?:account|acct|a/c)(?: ?(?:number|no\\.?|nr\\.?|#))?|konto(?:nummer|[ -]?nr\\.?)?|kto\\.?[ -]?nr\\.?|' +
  'n(?:°|o\\.?|um[eé]ro) ?de ?compte|rekening(?:nummer)?|n[uú]mero de cuenta|numero di conto|cuenta|conto';
const ACCOUNT = new RegExp(`(?<![\\w-])(?:${ACCOUNT_LABEL})[ .:#]*(${DIGIT_GROUPS(5, 20)})(?![\\d])`, 'gi');
const UK_ACCOUNT = new RegExp(`(?<![\\w-])(?:${ACCOUNT_LABEL})[ .:#]*(${DIGIT_GROUPS(8, 8)})(?![\\d])`, 'gi');
/** A labelled bank code: a BIC (SWIFT) or a routing number (ABA, BLZ). */
const BANK_CODE =
  /\b(?:BIC|SWIFT|SWIFT[ /-]?BIC|BIC[ /-]?SWIFT|SWIFT code|routing(?: number| no\.?)?|ABA|BLZ)\b[ .:#]*([A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\b|\d(?:[ -]?\d){7,8}\b)/gi;
/** Words that say a number beside them is a bank's. */
const BANK_CUE =
  /\b(?:bank|banque|banca|banco|iban|bic|swift|sort[ -]?code|routing|aba|blz|bankleitzahl|bankverbindung)\w*/i;
/** Words that say an "account" is the buyer's with the seller, not a bank account. */
const CUSTOMER_CUE = /\b(?:customer|client|kunden?|debitor|member|loyalty)\W*$/i;
/** How far (in characters of the flattened text) a label's partner may stand. */
const NEAR = 120;

function sortCodeAccounts(text: string): string[] {
  const line = flat(text);
  const keys: string[] = [];
  for (const match of line.matchAll(SORT_CODE)) {
    const at = match.index;
    const around = line.slice(Math.max(0, at - NEAR), at + match[0].length + NEAR);
    const account = [...around.matchAll(UK_ACCOUNT)][0]?.[1];
    if (account) keys.push(`SORT CODE ${match[1]}${match[2]}${match[3]} ACCOUNT ${account.replace(/\D/g, '')}`);
  }
  return keys;
}

function labelledAccounts(text: string): string[] {
  const line = flat(text);
  const keys: string[] = [];
  for (const match of line.matchAll(ACCOUNT)) {
    const at = match.index;
    if (CUSTOMER_CUE.test(line.slice(Math.max(0, at - 30), at))) continue;
    const around = line.slice(Math.max(0, at - NEAR), at + match[0].length + NEAR);
    const withoutLabel = around.replace(match[0], ' ');
    if (!BANK_CUE.test(withoutLabel) && !BANK_CUE.test(match[0])) continue;
    const digits = match[1]!.replace(/\D/g, '');
    const bank = [...around.matchAll(BANK_CODE)][0]?.[1]?.replace(/[\s-]/g, '').toUpperCase();
    keys.push(bank ? `ACCOUNT ${bank} ${digits}` : `ACCOUNT ${digits}`);
  }
  return keys;
}
