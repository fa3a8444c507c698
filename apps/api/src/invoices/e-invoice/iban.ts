/**
 * IBANs (ISO 13616) as the change guard needs them: one spelling per account, each country's length, and
 * the mod-97 check, so that invoice numbers, VAT ids and dates that happen to start with two letters and two
 * digits are not taken for accounts (visible-accounts.ts finds them in a page's text).
 */

/** IBAN length by country, from the SWIFT IBAN registry (the countries whose invoices reach a European carrier). */
const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  [
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29',
    'ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20',
    'LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29',
    'RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20',
  ]
    .join(' ')
    .split(' ')
    .map((entry): [string, number] => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/** An account number as compared: without spaces, in capitals. Applies to non-IBAN account ids too. */
export const normalAccount = (account: string) => account.replace(/\s+/g, '').toUpperCase();

/** The accounts named, each once however it is spaced or cased (the first spelling kept), in order. */
export function distinctAccounts(accounts: (string | null)[]): string[] {
  const byNormalForm = new Map<string, string>();
  for (const account of accounts) {
    if (account !== null && !byNormalForm.has(normalAccount(account)))
      byNormalForm.set(normalAccount(account), account);
  }
  return [...byNormalForm.values()];
}

/** The length of an IBAN that starts as `iban` does, if its country has IBANs. */
export const ibanLengthOf = (iban: string) => IBAN_LENGTHS.get(iban.slice(0, 2));

/** The ISO 7064 mod-97 check of an IBAN in normal form. */
export function hasValidIbanChecksum(iban: string): boolean {
  const expected = IBAN_LENGTHS.get(iban.slice(0, 2));
  if (expected === undefined || iban.length !== expected || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const digits = character >= 'A' ? String(character.charCodeAt(0) - 55) : character;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** The last four characters are enough to tell accounts apart in the audit log and a warning. */
export const maskedAccount = (account: string) => `…${normalAccount(account).slice(-4)}`;
