import type { Rule, RuleFlag } from '../rule.ts';

/**
 * Peppol's checks of national identifiers (PEPPOL-COMMON-R0xx), wherever one is written with its scheme: an
 * electronic address, a party identifier, a legal registration identifier. The Italian tax-code and VAT-code
 * checks (R045 to R048) are not written.
 */
const digitsOf = (value: string) => [...value].map(Number);

/** GS1's check digit: weights 3 and 1 from the right, over all digits but the last. */
function isGln(value: string): boolean {
  if (!/^[0-9]+$/.test(value)) return false;
  const body = digitsOf(value.slice(0, -1)).reverse();
  const weighted = body.reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (weighted % 10)) % 10 === Number(value.at(-1));
}

/** Norway's organisation number: nine digits, mod 11 with weights 2 … 7 from the right. */
function isNorwegianOrganisation(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value) || Number(value) === 0) return false;
  const body = digitsOf(value.slice(0, -1)).reverse();
  const weighted = body.reduce((total, digit, index) => total + digit * ((index % 6) + 2), 0);
  return (11 - (weighted % 11)) % 11 === Number(value.at(-1));
}

/** Denmark's CVR: eight digits, with or without DK in front. */
const isDanishCvr = (value: string) => /^(DK)?[0-9]{8}$/.test(value);

/** Belgium's enterprise number: ten digits, the last two 97 minus the first eight mod 97. */
const isBelgianEnterprise = (value: string) =>
  /^[0-9]{10}$/.test(value) && 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));

/** Sweden's organisation number: ten digits with a Luhn check digit. */
function isSwedishOrganisation(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  const total = digitsOf(value).reduce((sum, digit, index) => {
    const doubled = index % 2 === 0 ? digit * 2 : digit;
    return sum + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return total % 10 === 0;
}

/** Australia's ABN: eleven digits; with one taken from the first, the weighted sum divides by 89. */
function isAbn(value: string): boolean {
  if (!/^[0-9]{11}$/.test(value)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const digits = digitsOf(value);
  digits[0]! -= 1;
  return digits.reduce((total, digit, index) => total + digit * weights[index]!, 0) % 89 === 0;
}

/** Italy's IPA code (Codice Univoco Ufficio): six letters or digits. */
const isIpaCode = (value: string) => /^[A-Za-z0-9]{6}$/.test(value);

const identifierRule = (
  id: string,
  flag: RuleFlag,
  scheme: string,
  message: string,
  valid: (value: string) => boolean,
): Rule => ({
  id,
  flag,
  element: 'BT-34',
  message,
  check: (invoice) =>
    invoice.schemedIdentifiers
      .filter((identifier) => identifier.scheme === scheme && !valid(identifier.value))
      .map((identifier) => ({ at: `scheme ${scheme}`, value: identifier.value })),
});

export const PEPPOL_IDENTIFIER_RULES: Rule[] = [
  identifierRule('PEPPOL-COMMON-R040', 'fatal', '0088', 'GLN must have a valid format according to GS1 rules.', isGln),
  identifierRule(
    'PEPPOL-COMMON-R041',
    'fatal',
    '0192',
    'Norwegian organization number MUST be stated in the correct format.',
    isNorwegianOrganisation,
  ),
  identifierRule(
    'PEPPOL-COMMON-R042',
    'fatal',
    '0184',
    'Danish organization number (CVR) MUST be stated in the correct format.',
    isDanishCvr,
  ),
  identifierRule(
    'PEPPOL-COMMON-R043',
    'fatal',
    '0208',
    'Belgian enterprise number MUST be stated in the correct format.',
    isBelgianEnterprise,
  ),
  identifierRule(
    'PEPPOL-COMMON-R044',
    'warning',
    '0201',
    'IPA Code (Codice Univoco Unità Organizzativa) must be stated in the correct format',
    isIpaCode,
  ),
  identifierRule(
    'PEPPOL-COMMON-R049',
    'fatal',
    '0007',
    'Swedish organization number MUST be stated in the correct format.',
    isSwedishOrganisation,
  ),
  identifierRule(
    'PEPPOL-COMMON-R050',
    'fatal',
    '0151',
    'Australian Business Number (ABN) MUST be stated in the correct format.',
    isAbn,
  ),
];
