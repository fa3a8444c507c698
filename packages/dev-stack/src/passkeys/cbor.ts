/**
 * The part of CBOR (RFC 8949) an authenticator writes: unsigned and negative integers, byte and text
 * strings, arrays and maps, in the canonical short forms. Written here rather than borrowed from the
 * library under test, so the software authenticator checks the server instead of agreeing with it.
 */
export type CborValue = number | string | Uint8Array | CborValue[] | Map<number | string, CborValue>;

function head(majorType: number, length: number): Uint8Array {
  const major = majorType << 5;
  if (length < 24) return Uint8Array.of(major | length);
  if (length < 0x100) return Uint8Array.of(major | 24, length);
  if (length < 0x10000) return Uint8Array.of(major | 25, length >> 8, length & 0xff);
  const bytes = new Uint8Array(5);
  bytes[0] = major | 26;
  new DataView(bytes.buffer).setUint32(1, length);
  return bytes;
}

export function encodeCbor(value: CborValue): Uint8Array {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || Math.abs(value) > 0xffffffff) throw new Error(`CBOR: unsupported number ${value}`);
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const text = new TextEncoder().encode(value);
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(encodeCbor)]);
  const parts: Uint8Array[] = [head(5, value.size)];
  for (const [key, entry] of value) parts.push(encodeCbor(key), encodeCbor(entry));
  return Buffer.concat(parts);
}
