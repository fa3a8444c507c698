/**
 * The usage of every `npm run portal` command, in one place: the top-level help prints it all, each group prints
 * its own part with a usage error. Apart from the commands, so printing it loads nothing else.
 */

export const USERS_USAGE = `  users add <email> [--admin --operator <name>] [--take-over]
                                     allow an address in (creates its sign-in account, no password);
                                     --take-over deletes a sign-in account the portal did not make;
                                     --admin prints the new administrator's enrollment code
  users list                         print every allowed address and its status
  users remove <email>               remove an address and delete its sign-in account
  users admin <email> --on|--off --operator <name>
                                     make an address an administrator (printing their enrollment code),
                                     or stop it being one
  users finance <email> --on|--off --operator <name>
                                     give an address the finance role (the Invoices page: search every
                                     invoice, download many at once; prints their enrollment code), or
                                     take it away
  users enrollment-code <email> --operator <name>
                                     a new one-time code for an administrator's or finance user's first
                                     passkey (the first administrator at go-live); valid 24 hours
  users cleanups                     finish removals whose sign-in account is not deleted yet
  users reset-passkeys <email> --operator <name>
                                     remove an administrator's or finance user's passkeys, end their
                                     sessions, and print
                                     the code they set up a new passkey with
  users end-sessions <email>         sign someone out on every device
  users adopt <email> --operator <name>
                                     hand someone the administrators added over to the company directory
                                     (SCIM), which changes only the people it keeps

  --operator names the person running the command, for the audit log (any users command that changes
  something takes it; those that change roles or passkeys require it).
`;

export const INVOICES_USAGE = `  invoices import <file.pdf|file.xml> --parcel-code <code>
  invoices import-dir <dir>          import every <parcel code>.pdf or .xml in a folder
  invoices revalidate [--batch-size <n>]
                                     check every stored e-invoice version the present EN 16931 rules have
                                     not checked yet, and store its new report (n a batch, default 100);
                                     run it again to finish an interrupted run: checked ones are skipped
`;

export const STORAGE_USAGE = `  migrate                            apply this release's pending database migrations, then exit
  backup [<location>] [--prune [--keep-daily <n>] [--keep-monthly <m>]]
                                     database (one snapshot) + every invoice file a row names that the
                                     location's earlier backups do not hold, encrypted to BACKUP_RECIPIENT,
                                     + a manifest signed with BACKUP_SIGNING_KEY; --prune then prunes.
                                     <location>: a folder or s3://bucket/prefix (default BACKUP_TARGET)
  backup list [<location>]           every backup there, what it holds, and which the policy keeps
  backup prune [<location>] [--keep-daily <n>] [--keep-monthly <m>] [--dry-run]
                                     delete the backups the policy does not keep (default BACKUP_KEEP_DAILY,
                                     BACKUP_KEEP_MONTHLY: 7 and 12), and invoice files no kept one needs
  restore <location> [--backup <id>] a backup (default: the newest) into an empty database and an empty
                                     invoice store (needs BACKUP_IDENTITY and BACKUP_VERIFY_KEY; a backup not
                                     as signed is refused)
  verify [--delete-orphans] [--orphan-min-age-minutes <n>]
                                     every row's invoice file present with the right hash; orphans listed
  verify <location> [--backup <id>]  a backup as signed, every file decrypting to what its manifest says
  backup-keys <dir>                  make the backup keys (a new folder, owner-only)
`;

export const usageOf = (part: string) => `Usage: npm run portal -- <command>\n\n${part}`;

export const USAGE = usageOf(`${USERS_USAGE}\n${INVOICES_USAGE}${STORAGE_USAGE}`);
