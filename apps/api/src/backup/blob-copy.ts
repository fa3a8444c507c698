import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Recipient } from 'age-encryption';
import type { BackupLocation } from './location.ts';
import type { SealedDigest } from './sealed-file.ts';

/**
 * Encrypts a blob's stream into the location at `file` (blobFile: derived from sha256), and only when its bytes hash to that
 * name: the check runs as the last bytes pass, and a mismatch leaves no file. Returns the plaintext's size
 * and the encrypted file's digest.
 */
export async function copyBlobInto(
  location: BackupLocation,
  file: string,
  sha256: string,
  stream: Readable,
  recipients: (string | Recipient)[],
): Promise<{ size: number; sealed: SealedDigest }> {
  let size = 0;
  const checked = async function* () {
    const hash = createHash('sha256');
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      yield chunk;
    }
    const actual = hash.digest('hex');
    if (actual !== sha256) throw new Error(`blob ${sha256} read back as bytes that hash to ${actual}`);
  };
  const sealed = await location.writeSealed(file, checked(), recipients);
  return { size, sealed };
}

/** Reads a stream to its end and returns its sha256 and size. */
export async function hashStream(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
