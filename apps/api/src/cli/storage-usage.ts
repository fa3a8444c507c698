/** The storage commands' lines of `npm run portal`'s usage, apart so printing it loads nothing else. */
export const USAGE = `  migrate                            apply this release's pending database migrations, then exit
  backup <dir>                       database (one snapshot) + every invoice file a row names, encrypted to
                                     BACKUP_RECIPIENT, + a manifest signed with BACKUP_SIGNING_KEY
  restore <dir>                      a backup into an empty database and an empty invoice store (needs
                                     BACKUP_IDENTITY and BACKUP_VERIFY_KEY; a backup not as signed is refused)
  verify [--delete-orphans] [--orphan-min-age-minutes <n>]
                                     every row's invoice file present with the right hash; orphans listed
  verify <dir>                       a backup as signed, every file decrypting to what its manifest says
  backup-keys <dir>                  make the backup keys (a new folder, owner-only)
`;
