/**
 * The code lists EN 16931 checks codes against (BR-CL-*), as data. Each names its source; the values are
 * those of the lists in force for EN 16931 at the rules' edition (RULES_VERSION), including the additions
 * the standard's code-list registry makes (1A for Kosovo, XI for Northern Ireland).
 */
export const codes = (text: string) => new Set(text.trim().split(/\s+/));

/** ISO 3166-1 alpha-2 country codes, with the EN 16931 additions 1A (Kosovo) and XI (Northern Ireland). */
export const ISO_3166_COUNTRIES = codes(`
  1A AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY
  BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM
  FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT
  JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN
  MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT
  PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL
  TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XI YE YT ZA ZM ZW`);

export const isCountryCode = (code: string) => ISO_3166_COUNTRIES.has(code);

/** ISO 4217 currency codes (alphabetic), including the funds and precious-metal codes the list carries. */
export const ISO_4217_CURRENCIES = codes(`
  AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE
  CHF CHW CLF CLP CNH CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
  GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP
  LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB
  PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STD SVC SYP SZL THB
  TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VES VED VND VUV WST XAF XAG XAU XBA XBB XBC
  XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG`);

/** Peppol BIS Billing 3's ISO 4217 list, a step behind the one EN 16931 holds at this edition. */
export const PEPPOL_ISO_4217_CURRENCIES = new Set(
  [...ISO_4217_CURRENCIES].filter((code) => !['CNH', 'STD', 'XCG'].includes(code)).concat(['ANG', 'BGN', 'STN']),
);

/** UNTDID 1001, document name codes: the subset EN 16931 allows for an invoice's type code (BT-3). */
export const UNTDID_1001_INVOICE_TYPES = codes(`
  71 80 81 82 84 102 130 202 203 204 211 218 219 295 325 326 331 380 382 383 384 385 386 387 388 389 390 393 394
  395 456 457 471 472 473 500 501 527 553 575 623 633 751 780 817 870 875 876 877 935`);

/** UNTDID 2005, date/time/period function codes: the subset for the VAT point date code (BT-8) in UBL. */
/** UNTDID 1001: the subset EN 16931 allows for a credit note's type code (BT-3); CII, which has one document for both, allows either subset. */
export const UNTDID_1001_CREDIT_NOTE_TYPES = codes(`
  81 83 261 262 296 308 381 396 420 458 502 503 532`);

/** UNTDID 2005, date/time/period function codes: the subset for the VAT point date code (BT-8) in UBL. */
export const UNTDID_2005_VAT_POINT_DATES = codes('3 35 432');

/** UNTDID 2475, payment time reference codes: the same subset as CII writes BT-8 (issue, delivery, payment). */
export const UNTDID_2475_VAT_POINT_DATES = codes('5 29 72');

/** UNTDID 4461, payment means codes (BT-81). */
export const UNTDID_4461_PAYMENT_MEANS = codes(`
  1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40
  41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 74 75 76 77 78 91 92
  93 94 95 96 97 98 ZZZ`);

/** UNTDID 5305, duty/tax/fee category codes (BT-95, BT-102, BT-118, BT-151). */
export const UNTDID_5305_VAT_CATEGORIES = codes('AE L M E S Z G O K B');

/** UNTDID 5189, allowance or charge identification codes: allowance reason codes (BT-98, BT-140). */
export const UNTDID_5189_ALLOWANCE_REASONS = codes(`
  41 42 60 62 63 64 65 66 67 68 70 71 88 95 100 102 103 104 105`);

/** UNTDID 7161, special service description codes: charge reason codes (BT-105, BT-145). */
export const UNTDID_7161_CHARGE_REASONS = codes(`
  AA AAA AAC AAD AAE AAF AAH AAI AAS AAT AAV AAY AAZ ABA ABB ABC ABD ABF ABK ABL ABN ABR ABS ABT ABU ACF ACG ACH
  ACI ACJ ACK ACL ACM ACS ADC ADE ADJ ADK ADL ADM ADN ADO ADP ADQ ADR ADT ADW ADY ADZ AEA AEB AEC AED AEF AEH
  AEI AEJ AEK AEL AEM AEN AEO AEP AES AET AEU AEV AEW AEX AEY AEZ AJ AU CA CAB CAD CAE CAF CAI CAJ CAK CAL CAM
  CAN CAO CAP CAQ CAR CAS CAT CAU CAV CAW CAX CAY CAZ CD CG CS CT DAB DAD DAC DAF DAG DAH DAI DAJ DAK DAL DAM
  DAN DAO DAP DAQ DL EG EP ER FAA FAB FAC FC FH FI GAA HAA HD HH IAA IAB ID IF IR IS KO L1 LA LAA LAB LF MAE MI
  ML NAA OA PA PAA PC PL PRV RAB RAC RAD RAF RE RF RH RV SA SAA SAD SAE SAI SG SH SM SU TAB TAC TT TV V1 V2 WH
  XAA YY ZZZ`);

/** IANA media types EN 16931 allows for an attached supporting document (BT-125). */
export const ATTACHMENT_MIME_TYPES = codes(`
  application/pdf image/png image/jpeg text/csv application/vnd.openxmlformats-officedocument.spreadsheetml.sheet
  application/vnd.oasis.opendocument.spreadsheet`);
