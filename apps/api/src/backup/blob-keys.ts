import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Stanza, type Identity, type Recipient } from 'age-encryption';
import { BACKUP_ID, BackupTamperedError, BLOBS_DIR } from './manifest.ts';
import type { BackupLocation } from './location.ts';
import { openSealed } from './sealed-file.ts';

/**
 * Envelope keys for the invoice files of a backup. Sealing every blob to the recipients costs a post-quantum
 * key encapsulation each (and a decapsulation on every read back): at 100,000 invoices that was most of a
 * backup's, verify's and restore's time. Instead each run makes one random key, seals it to the recipients
 * once, as `blobs/<keyset>/keys/<backup id>.age`, and wraps each blob's age file key with it
 * (ChaCha20-Poly1305, in a stanza of its own). The blobs stay age files: the body, its chunked authentication
 * and the header's MAC are age's own, so a key file swapped for another cannot make a signed blob read as
 * other bytes. Whoever holds an identity opens the key file, and with it the run's blobs.
 */
export const BLOB_KEY_STANZA = 'parcel-portal/blob-key';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Where the key of the blobs a backup run copied lies; prune keeps it as long as one of those blobs. */
export const blobKeyFile = (keyset: string, copiedBy: string) => `${BLOBS_DIR}/${keyset}/keys/${copiedBy}.age`;

const associatedData = (copiedBy: string) => Buffer.from(`${BLOB_KEY_STANZA} ${copiedBy}`);

/** Makes the run's key, sealed to the recipients into the location, and the age recipient that wraps with it. */
export async function createBlobKey(
  location: BackupLocation,
  keyset: string,
  copiedBy: string,
  recipients: string[],
): Promise<Recipient> {
  const key = randomBytes(KEY_BYTES);
  await location.writeSealed(
    blobKeyFile(keyset, copiedBy),
    (async function* () {
      yield key;
    })(),
    recipients,
  );
  return {
    wrapFileKey(fileKey) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(associatedData(copiedBy), { plaintextLength: fileKey.length });
      const body = Buffer.concat([nonce, cipher.update(fileKey), cipher.final(), cipher.getAuthTag()]);
      return [new Stanza([BLOB_KEY_STANZA, copiedBy], body)];
    },
  };
}

/** The identities that open every file of a backup: the recipients' own, and the run keys' (older backups). */
export const backupIdentities = (location: BackupLocation, keyset: string, identities: string[]) => [
  ...identities,
  blobKeyIdentity(location, keyset, identities),
];

/**
 * The age identity that opens blobs wrapped with a run's key: it reads that run's key file with the given
 * identities, once per run, and leaves files sealed straight to the recipients (older backups) to them.
 */
export function blobKeyIdentity(location: BackupLocation, keyset: string, identities: string[]): Identity {
  const keys = new Map<string, Promise<Buffer>>();
  const readKey = async (copiedBy: string) => {
    const file = blobKeyFile(keyset, copiedBy);
    const stream = await location.openRead(file);
    if (!stream) throw new BackupTamperedError(`${file} is missing from the backup.`);
    const chunks: Buffer[] = [];
    let size = 0;
    const plain = await openSealed(stream, identities);
    for await (const chunk of plain) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      // A key file is 32 bytes: one that decrypts to more is not read further into memory.
      if (size > KEY_BYTES) {
        plain.destroy();
        break;
      }
    }
    const key = Buffer.concat(chunks);
    if (key.length !== KEY_BYTES) throw new BackupTamperedError(`${file} does not hold a key.`);
    return key;
  };
  const keyOf = (copiedBy: string) => {
    let key = keys.get(copiedBy);
    if (!key) {
      key = readKey(copiedBy);
      // A failed read (the bucket away a moment) is tried again by the next file, not remembered.
      key.catch(() => keys.delete(copiedBy));
      keys.set(copiedBy, key);
    }
    return key;
  };
  return {
    async unwrapFileKey(stanzas) {
      const stanza = stanzas.find((candidate) => candidate.args[0] === BLOB_KEY_STANZA);
      if (!stanza) return null;
      const [, copiedBy = ''] = stanza.args;
      const body = Buffer.from(stanza.body);
      if (stanza.args.length !== 2 || !BACKUP_ID.test(copiedBy) || body.length <= NONCE_BYTES + TAG_BYTES) {
        throw new BackupTamperedError(`a ${BLOB_KEY_STANZA} stanza is malformed`);
      }
      const key = await keyOf(copiedBy);
      const decipher = createDecipheriv('chacha20-poly1305', key, body.subarray(0, NONCE_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(associatedData(copiedBy), { plaintextLength: body.length - NONCE_BYTES - TAG_BYTES });
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES)), decipher.final()]);
      } catch {
        throw new BackupTamperedError(`the file key does not open with ${blobKeyFile(keyset, copiedBy)}`);
      }
    },
  };
}
