import { backupReadKeys, backupWriteKeys, generateBackupKeys } from '../../src/backup/keys.ts';

/** A fresh set of backup keys, read through the same checks as the operator's variables. */
export async function testBackupKeys() {
  const generated = await generateBackupKeys();
  const env = {
    BACKUP_RECIPIENT: generated.recipient,
    BACKUP_SIGNING_KEY: generated.signingKeyPem,
    BACKUP_IDENTITY: generated.identity,
    BACKUP_VERIFY_KEY: generated.verifyKeyPem,
  };
  return { generated, env, write: backupWriteKeys(env), read: backupReadKeys(env) };
}
