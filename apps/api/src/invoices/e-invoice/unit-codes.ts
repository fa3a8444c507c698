/**
 * Units of measure an e-invoice line may use (EN 16931 BT-130), by the names UN/ECE gives them: UN/ECE
 * Recommendation No. 20, "Codes for Units of Measure Used in International Trade" (Revision 17, Annexes II
 * and III), and for the codes with an "X" in front, UN/ECE Recommendation No. 21, "Codes for Passengers, Types
 * of Cargo, Packages and Packaging Materials" (Annex VI), as EN 16931's code list combines them. Only the
 * codes invoices commonly carry: any other is printed as its code, which is still what the XML says.
 */
export const UNIT_NAMES: Readonly<Record<string, string>> = {
  C62: 'one',
  H87: 'piece',
  EA: 'each',
  NAR: 'number of articles',
  NPR: 'number of pairs',
  PR: 'pair',
  SET: 'set',
  DZN: 'dozen',
  LS: 'lump sum',
  ZZ: 'mutually defined',
  E48: 'service unit',
  P1: 'percent',
  SEC: 'second',
  MIN: 'minute',
  HUR: 'hour',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  ANN: 'year',
  GRM: 'gram',
  KGM: 'kilogram',
  TNE: 'tonne (metric ton)',
  LBR: 'pound',
  MMT: 'millimetre',
  CMT: 'centimetre',
  MTR: 'metre',
  KMT: 'kilometre',
  MTK: 'square metre',
  MTQ: 'cubic metre',
  MLT: 'millilitre',
  LTR: 'litre',
  KWH: 'kilowatt hour',
  MWH: 'megawatt hour (1000 kW.h)',
  TKM: 'tonne kilometre',
  XBX: 'box',
  XCT: 'carton',
  XPK: 'package',
  XPA: 'packet',
  XPP: 'piece',
  XPX: 'pallet',
  XBG: 'bag',
  XSA: 'sack',
  XNE: 'unpacked or unpackaged',
};

/**
 * A line's quantity as a person reads it: "7 day", "2 pallet", "3" for a plain count (C62, "one", says no
 * more than the number), the code itself where the table has no name for it.
 */
export function quantityText(quantity: string | null, unitCode: string | null): string {
  const code = unitCode?.trim().toUpperCase() ?? '';
  const unit = code === 'C62' ? '' : (UNIT_NAMES[code] ?? code);
  return [quantity, unit].filter(Boolean).join(' ');
}
