import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Decrypter, Encrypter, type Identity, type Recipient } from 'age-encryption';

/** A backup's folders and files: only the owner (the account that runs the backup) may read or list them. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The sha256 and size of a file as it lies in the backup (encrypted): what the signed manifest holds. */
export interface SealedDigest {
  sha256: string;
  size: number;
}

/** Counts and hashes what passes through, for a pipeline; read `digest()` once the stream has ended. */
export function digesting() {
  const hash = createHash('sha256');
  let size = 0;
  return {
    async *pass(source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    digest: (): SealedDigest => ({ sha256: hash.digest('hex'), size }),
  };
}

const toWeb = (source: AsyncIterable<Uint8Array>) =>
  Readable.toWeb(Readable.from(source)) as unknown as ReadableStream<Uint8Array>;
const fromWeb = (stream: ReadableStream<Uint8Array>) => Readable.fromWeb(stream as unknown as WebReadableStream);

/**
 * Encrypts `plaintext` to the recipients (age, streamed in 64 KiB chunks: a large invoice never sits in memory
 * whole) into `target`, written beside and renamed, owner-only. Returns the encrypted file's digest.
 */
export async function writeSealed(
  target: string,
  plaintext: AsyncIterable<Uint8Array>,
  recipients: (string | Recipient)[],
): Promise<SealedDigest> {
  await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
  const encrypter = new Encrypter();
  for (const recipient of recipients) encrypter.addRecipient(recipient);
  const sealed = digesting();
  const partial = `${target}.${randomUUID()}.part`;
  try {
    const encrypted = await encrypter.encrypt(toWeb(plaintext));
    await pipeline(fromWeb(encrypted), sealed.pass, createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
    await rename(partial, target);
    return sealed.digest();
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** The identities do not open this file: it was encrypted to other recipients. */
export class WrongIdentityError extends Error {}

/**
 * The plaintext of a sealed file, streamed. Rejects at once (WrongIdentityError) when no identity opens
 * its header; a changed or cut-off body makes the stream fail where it is (age authenticates each chunk).
 */
export async function openSealed(file: string | Readable, identities: (string | Identity)[]): Promise<Readable> {
  const decrypter = new Decrypter();
  for (const identity of identities) decrypter.addIdentity(identity);
  const encrypted = typeof file === 'string' ? createReadStream(file) : file;
  try {
    return fromWeb(await decrypter.decrypt(toWeb(encrypted)));
  } catch (error) {
    encrypted.destroy();
    if (/no identity matched/i.test((error as Error).message)) throw new WrongIdentityError((error as Error).message);
    throw error;
  }
}

/** The digest of a file as it lies in the backup, read to its end. */
export async function digestFile(file: string | Readable): Promise<SealedDigest> {
  const sealed = digesting();
  for await (const chunk of sealed.pass(typeof file === 'string' ? createReadStream(file) : file)) void chunk;
  return sealed.digest();
}
