import { ScimError } from './scim-error.ts';

/**
 * SCIM filters (RFC 7644 §3.4.2.2) as a tree: comparisons, `pr`, `and`/`or`/`not`, grouping and value paths
 * (`emails[type eq "work"].value`). Operators and attribute names are case-insensitive; values are JSON
 * literals. The same parser reads PATCH paths (patch.ts), whose value-path filters use this grammar too.
 */
export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | null;

export type Filter =
  | { kind: 'compare'; attr: string; op: CompareOp; value: FilterValue }
  | { kind: 'present'; attr: string }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  /** `emails[type eq "work"]`, or with a sub-attribute compared after it: `emails[type eq "work"].value eq "…"`. */
  | { kind: 'valuePath'; attr: string; filter: Filter; then?: Filter };

const COMPARE_OPS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
const MAX_FILTER_LENGTH = 2000;
const MAX_DEPTH = 20;

type Token =
  { type: 'word'; text: string } | { type: 'string'; value: string } | { type: 'punct'; text: '(' | ')' | '[' | ']' };

const invalid = (detail: string) => new ScimError(400, 'invalidFilter', detail);

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < input.length) {
    const char = input[at]!;
    if (/\s/.test(char)) {
      at++;
    } else if (char === '(' || char === ')' || char === '[' || char === ']') {
      tokens.push({ type: 'punct', text: char });
      at++;
    } else if (char === '"') {
      let end = at + 1;
      while (end < input.length && input[end] !== '"') end += input[end] === '\\' ? 2 : 1;
      if (end >= input.length) throw invalid('A quoted value in the filter is not closed.');
      try {
        tokens.push({ type: 'string', value: JSON.parse(input.slice(at, end + 1)) as string });
      } catch {
        throw invalid('A quoted value in the filter is not a valid JSON string.');
      }
      at = end + 1;
    } else {
      const match = /^[^\s()[\]"]+/.exec(input.slice(at));
      const text = match![0];
      // `emails[type eq "work"].value`: the sub-attribute after a value path is its own word.
      tokens.push({ type: 'word', text });
      at += text.length;
    }
  }
  return tokens;
}

function literal(token: Token | undefined): FilterValue {
  if (!token) throw invalid('The filter ends where a value was expected.');
  if (token.type === 'string') return token.value;
  if (token.type === 'word') {
    const lower = token.text.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    if (lower === 'null') return null;
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(token.text)) return Number(token.text);
  }
  throw invalid(`"${describeToken(token)}" is not a value: quote strings ("…"), or use true, false, null or a number.`);
}

const describeToken = (token: Token) => (token.type === 'string' ? JSON.stringify(token.value) : token.text);

const ATTR_PATH = /^(?:urn:[\w.:-]+:)?[a-z_$][\w$-]*(?:\.[a-z_$][\w$-]*)?$/i;

function attribute(token: Token | undefined): string {
  if (token?.type !== 'word' || !ATTR_PATH.test(token.text))
    throw invalid(`"${token ? describeToken(token) : ''}" is not an attribute name.`);
  return token.text;
}

/** Parses a whole filter expression. */
export function parseFilter(input: string): Filter {
  if (input.length > MAX_FILTER_LENGTH) throw invalid(`A filter has at most ${MAX_FILTER_LENGTH} characters.`);
  const tokens = tokenize(input);
  let at = 0;
  const peekWord = () => {
    const token = tokens[at];
    return token?.type === 'word' ? token.text.toLowerCase() : undefined;
  };
  const expect = (text: string) => {
    const token = tokens[at++];
    if (token?.type !== 'punct' || token.text !== text) throw invalid(`The filter misses "${text}".`);
  };

  function orExpression(depth: number): Filter {
    if (depth > MAX_DEPTH) throw invalid('The filter nests too deeply.');
    let left = andExpression(depth);
    while (peekWord() === 'or') {
      at++;
      left = { kind: 'or', left, right: andExpression(depth) };
    }
    return left;
  }

  function andExpression(depth: number): Filter {
    let left = unary(depth);
    while (peekWord() === 'and') {
      at++;
      left = { kind: 'and', left, right: unary(depth) };
    }
    return left;
  }

  function unary(depth: number): Filter {
    const token = tokens[at];
    if (token?.type === 'word' && token.text.toLowerCase() === 'not') {
      at++;
      expect('(');
      const filter = orExpression(depth + 1);
      expect(')');
      return { kind: 'not', filter };
    }
    if (token?.type === 'punct' && token.text === '(') {
      at++;
      const filter = orExpression(depth + 1);
      expect(')');
      return filter;
    }
    return comparison(depth);
  }

  function comparison(depth: number): Filter {
    const attr = attribute(tokens[at++]);
    const next = tokens[at];
    if (next?.type === 'punct' && next.text === '[') {
      at++;
      const filter = orExpression(depth + 1);
      expect(']');
      // `emails[type eq "work"].value eq "…"`: the sub-attribute follows the bracket as a word ".value".
      const after = tokens[at];
      if (after?.type === 'word' && after.text.startsWith('.')) {
        at++;
        const sub = attribute({ type: 'word', text: after.text.slice(1) });
        return { kind: 'valuePath', attr, filter, then: operatorAndValue(sub) };
      }
      return { kind: 'valuePath', attr, filter };
    }
    return operatorAndValue(attr);
  }

  function operatorAndValue(attr: string): Filter {
    const op = peekWord();
    if (op === 'pr') {
      at++;
      return { kind: 'present', attr };
    }
    if (!op || !COMPARE_OPS.has(op))
      throw invalid(`After "${attr}" the filter needs an operator (eq, ne, co, sw, ew, gt, ge, lt, le or pr).`);
    at++;
    return { kind: 'compare', attr, op: op as CompareOp, value: literal(tokens[at++]) };
  }

  if (tokens.length === 0) throw invalid('The filter is empty.');
  const filter = orExpression(0);
  if (at < tokens.length) throw invalid(`The filter has something after its end: "${describeToken(tokens[at]!)}".`);
  return filter;
}

/**
 * A PATCH path (RFC 7644 §3.5.2): `attr`, `attr.sub`, `attr[filter]` or `attr[filter].sub`, with an optional
 * schema URN in front. Returns the attribute, the value filter and the sub-attribute, lower-cased names.
 */
export function parsePath(input: string): { attr: string; filter?: Filter; sub?: string } {
  const path = stripSchema(input.trim());
  const bracket = path.indexOf('[');
  if (bracket === -1) {
    if (!ATTR_PATH.test(path)) throw new ScimError(400, 'invalidPath', `"${input}" is not an attribute path.`);
    const [attr, sub] = path.toLowerCase().split('.') as [string, string | undefined];
    return sub ? { attr, sub } : { attr };
  }
  const close = path.lastIndexOf(']');
  if (close < bracket) throw new ScimError(400, 'invalidPath', `"${input}" misses its "]".`);
  const attr = path.slice(0, bracket).toLowerCase();
  const rest = path.slice(close + 1);
  if (!ATTR_PATH.test(attr) || (rest !== '' && !/^\.[a-z_$][\w$-]*$/i.test(rest)))
    throw new ScimError(400, 'invalidPath', `"${input}" is not an attribute path.`);
  let filter: Filter;
  try {
    filter = parseFilter(path.slice(bracket + 1, close));
  } catch (error) {
    if (error instanceof ScimError) throw new ScimError(400, 'invalidPath', error.message);
    throw error;
  }
  return rest ? { attr, filter, sub: rest.slice(1).toLowerCase() } : { attr, filter };
}

/** The core and enterprise User schemas' own attributes may be named with their schema in front. */
const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(?:User|Group):/i;

export const stripSchema = (name: string) => name.replace(CORE_PREFIX, '');
