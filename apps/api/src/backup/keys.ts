import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Decrypter, Encrypter, generateHybridIdentity, identityToRecipient } from 'age-encryption';
import { ConfigError } from '../config.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './sealed-file.ts';

/**
 * The keys of a backup, in two halves that live on different machines: whoever makes backups holds the
 * recipients (public: it can encrypt, never read back) and the signing key; whoever restores holds the
 * identity (secret: it reads) and the verify key (public: it tells a backup this portal made from one
 * someone wrote into the backup folder). So a backup host that is broken into gives away no backup, and a
 * backup folder that is written to cannot make anyone an administrator.
 */
export interface BackupWriteKeys {
  /** age recipients (`age1…`): every file is readable by any one of their identities. */
  recipients: string[];
  /** Ed25519 private key that signs the manifest. */
  signingKey: KeyObject;
}

export interface BackupReadKeys {
  /** age identities (`AGE-SECRET-KEY-…`): any one that matches opens the files. */
  identities: string[];
  /** Ed25519 public key the manifest's signature must verify under. */
  verifyKey: KeyObject;
}

export const KEY_VARIABLES = {
  recipient: 'BACKUP_RECIPIENT',
  signingKey: 'BACKUP_SIGNING_KEY',
  identity: 'BACKUP_IDENTITY',
  verifyKey: 'BACKUP_VERIFY_KEY',
} as const;

/**
 * A variable given as its value (NAME) or as a file holding it (NAME_FILE, the form for secrets mounted by
 * Kubernetes or compose). Problems name the variable, never the value.
 */
function readVariable(env: NodeJS.ProcessEnv, name: string, problems: string[]): string | undefined {
  const value = env[name]?.trim() || undefined;
  const file = env[`${name}_FILE`]?.trim() || undefined;
  if (value && file) {
    problems.push(`${name} and ${name}_FILE are both set: give one of them`);
    return undefined;
  }
  if (!file) {
    if (!value) problems.push(`${name} (or ${name}_FILE) is required for this command`);
    return value;
  }
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`${name}_FILE ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return undefined;
  }
}

/** Lines of an age recipients or identity file: `#` comments and blank lines left out (age-keygen's own output reads). */
const keyLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

function parseRecipients(text: string, problems: string[]): string[] {
  const lines = keyLines(text);
  if (lines.length === 0) problems.push(`${KEY_VARIABLES.recipient} names no age recipient (age1…)`);
  lines.forEach((line, index) => {
    try {
      if (!line.startsWith('age1')) throw new Error('not a recipient');
      new Encrypter().addRecipient(line);
    } catch {
      problems.push(
        `${KEY_VARIABLES.recipient} line ${index + 1} is not an age recipient (age1…)${line.startsWith('AGE-SECRET-KEY-') ? ': it is a secret identity, which belongs on the restoring machine only' : ''}`,
      );
    }
  });
  return lines;
}

function parseIdentities(text: string, problems: string[]): string[] {
  const lines = keyLines(text);
  if (lines.length === 0) problems.push(`${KEY_VARIABLES.identity} names no age identity (AGE-SECRET-KEY-…)`);
  lines.forEach((line, index) => {
    try {
      if (!line.startsWith('AGE-SECRET-KEY-')) throw new Error('not an identity');
      new Decrypter().addIdentity(line);
    } catch {
      problems.push(`${KEY_VARIABLES.identity} line ${index + 1} is not an age identity (AGE-SECRET-KEY-…)`);
    }
  });
  return lines;
}

function parseEd25519(text: string, kind: 'private' | 'public', problems: string[]): KeyObject | undefined {
  const name = kind === 'private' ? KEY_VARIABLES.signingKey : KEY_VARIABLES.verifyKey;
  // createPublicKey accepts a private key too (and derives its public half): a signing key handed to the
  // restoring machine would work, and would put the key that can forge backups there.
  if (kind === 'public' && /PRIVATE KEY/.test(text)) {
    problems.push(`${name} is a private key: give the public key (backup-verify-key.pem) here`);
    return undefined;
  }
  try {
    const key = kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('not Ed25519');
    return key;
  } catch {
    problems.push(`${name} is not an Ed25519 ${kind} key in PEM form (-----BEGIN ${kind.toUpperCase()} KEY-----)`);
    return undefined;
  }
}

/** The keys `portal backup` needs, read and checked before it touches anything; ConfigError lists every problem. */
export function backupWriteKeys(env: NodeJS.ProcessEnv = process.env): BackupWriteKeys {
  const problems: string[] = [];
  const recipientText = readVariable(env, KEY_VARIABLES.recipient, problems);
  const signingText = readVariable(env, KEY_VARIABLES.signingKey, problems);
  const recipients = recipientText === undefined ? [] : parseRecipients(recipientText, problems);
  const signingKey = signingText === undefined ? undefined : parseEd25519(signingText, 'private', problems);
  if (problems.length || !signingKey) throw new ConfigError(problems);
  return { recipients, signingKey };
}

/** The keys `portal restore` and `portal verify <dir>` need, read and checked before they touch anything. */
export function backupReadKeys(env: NodeJS.ProcessEnv = process.env): BackupReadKeys {
  const problems: string[] = [];
  const identityText = readVariable(env, KEY_VARIABLES.identity, problems);
  const verifyText = readVariable(env, KEY_VARIABLES.verifyKey, problems);
  const identities = identityText === undefined ? [] : parseIdentities(identityText, problems);
  const verifyKey = verifyText === undefined ? undefined : parseEd25519(verifyText, 'public', problems);
  if (problems.length || !verifyKey) throw new ConfigError(problems);
  return { identities, verifyKey };
}

export interface GeneratedBackupKeys {
  recipient: string;
  identity: string;
  signingKeyPem: string;
  verifyKeyPem: string;
}

/**
 * A new pair of each: an age identity of the post-quantum hybrid kind (ML-KEM-768 + X25519; backups of
 * invoices are kept for years, longer than X25519 alone may stay unbroken) and an Ed25519 signing key.
 */
export async function generateBackupKeys(): Promise<GeneratedBackupKeys> {
  const identity = await generateHybridIdentity();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    recipient: await identityToRecipient(identity),
    identity,
    signingKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    verifyKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** The files `portal backup-keys <dir>` writes, and which machine each belongs on. */
export const KEY_FILES = {
  recipient: { file: 'backup-recipient.txt', variable: `${KEY_VARIABLES.recipient}_FILE`, on: 'backup' },
  signingKey: { file: 'backup-signing-key.pem', variable: `${KEY_VARIABLES.signingKey}_FILE`, on: 'backup' },
  identity: { file: 'backup-identity.txt', variable: `${KEY_VARIABLES.identity}_FILE`, on: 'restore' },
  verifyKey: { file: 'backup-verify-key.pem', variable: `${KEY_VARIABLES.verifyKey}_FILE`, on: 'restore' },
} as const;

export class KeyFolderInUseError extends Error {}

/**
 * Writes a new set of keys into a new folder, owner-only (0700, files 0600), never over an existing key:
 * losing the identity makes every backup made with it unreadable.
 */
export async function writeBackupKeys(dir: string): Promise<Record<keyof typeof KEY_FILES, string>> {
  await mkdir(path.dirname(dir), { recursive: true });
  try {
    await mkdir(dir, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new KeyFolderInUseError(`${dir} exists: keys go into a new folder, so that no key is ever overwritten.`);
  }
  const keys = await generateBackupKeys();
  const created = `# created: ${new Date().toISOString()}\n`;
  const contents: Record<keyof typeof KEY_FILES, string> = {
    recipient: `${created}${keys.recipient}\n`,
    signingKey: keys.signingKeyPem,
    identity: `${created}# public key: ${keys.recipient}\n${keys.identity}\n`,
    verifyKey: keys.verifyKeyPem,
  };
  const paths = {} as Record<keyof typeof KEY_FILES, string>;
  for (const [name, { file }] of Object.entries(KEY_FILES) as [keyof typeof KEY_FILES, { file: string }][]) {
    paths[name] = path.join(dir, file);
    await writeFile(paths[name], contents[name], { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  }
  return paths;
}

/**
 * The key that tells which backups of a location this portal made, for `backup list` and `backup prune`: the
 * verify key where one is given (the restoring machine), else the public half of the signing key (the
 * backup machine, which holds no verify key of its own).
 */
export function backupVerifyKey(env: NodeJS.ProcessEnv = process.env): KeyObject {
  const problems: string[] = [];
  const given = [KEY_VARIABLES.verifyKey, `${KEY_VARIABLES.verifyKey}_FILE`].some((name) => env[name]?.trim());
  if (given) {
    const text = readVariable(env, KEY_VARIABLES.verifyKey, problems);
    const key = text === undefined ? undefined : parseEd25519(text, 'public', problems);
    if (problems.length || !key) throw new ConfigError(problems);
    return key;
  }
  const signingText = readVariable(env, KEY_VARIABLES.signingKey, []);
  if (signingText === undefined) {
    throw new ConfigError([
      `${KEY_VARIABLES.verifyKey} (or ${KEY_VARIABLES.signingKey}, whose public half is used) is required for this command`,
    ]);
  }
  const signingKey = parseEd25519(signingText, 'private', problems);
  if (problems.length || !signingKey) throw new ConfigError(problems);
  return createPublicKey(signingKey);
}
