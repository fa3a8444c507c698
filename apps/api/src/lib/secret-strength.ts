/**
 * How hard a configured token is to guess, judged from the text alone. A bearer token is the only credential
 * its caller has (the ingestion job, the scraper, the company directory), sent to an address anyone can reach,
 * so one a person typed ("portal-ingest-token-2026-please-change") is as good as none.
 *
 * The estimate is the text's length times the entropy of its characters' spread (Shannon): hard on repeats
 * and small alphabets, and below a random token's true strength (a hex one of 32 characters, 128 bits, scores
 * about 118 and, one time in a few hundred thousand, 91; `openssl rand -base64 32` about 220, never below 180),
 * hence a floor of 80. Two shapes it would score too well are refused besides: a
 * piece repeated (a word typed three times), and a run along the alphabet or the digits for most of its length.
 */
export const MIN_SECRET_BITS = 80;

export const MAKE_A_TOKEN = 'make one with `openssl rand -base64 32` (or `openssl rand -hex 32`)';

export function estimatedBits(value: string): number {
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...value].length;
  let perCharacter = 0;
  for (const count of counts.values()) perCharacter -= (count / length) * Math.log2(count / length);
  return Math.round(perCharacter * length);
}

/** A short unit repeated throughout, or one piece of five characters three times or more ("word-word-word…"). */
function repeatsItself(value: string): boolean {
  if (/^(.+)\1+$/s.test(value)) return true;
  const seen = new Map<string, number>();
  for (let index = 0; index + 5 <= value.length; index++) {
    const piece = value.slice(index, index + 5);
    const times = (seen.get(piece) ?? 0) + 1;
    if (times >= 3) return true;
    seen.set(piece, times);
  }
  return false;
}

/** Neighbours one apart ("abcd", "6543"): a keyboard or counting walk. */
function stepShare(value: string): number {
  let steps = 0;
  for (let index = 1; index < value.length; index++) {
    if (Math.abs(value.charCodeAt(index) - value.charCodeAt(index - 1)) === 1) steps++;
  }
  return value.length > 1 ? steps / (value.length - 1) : 0;
}

/** Why a token is too easy to guess, in words for the start-up error; undefined when it is not. */
export function weakSecretReason(value: string): string | undefined {
  if (repeatsItself(value)) return 'repeats the same piece';
  if (stepShare(value) > 0.6) return 'is mostly a run of consecutive characters';
  const bits = estimatedBits(value);
  if (bits < MIN_SECRET_BITS) return `has about ${bits} bits of randomness, fewer than ${MIN_SECRET_BITS}`;
  return undefined;
}
