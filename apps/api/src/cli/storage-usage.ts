/** The storage commands' lines of `npm run portal`'s usage, apart so printing it loads nothing else. */
export const USAGE = `  migrate                            apply this release's pending database migrations, then exit
  backup <dir>                       database (one snapshot) + every invoice file a row names + manifest
  restore <dir>                      a backup into an empty database and an empty invoice store
  verify [--delete-orphans] [--orphan-min-age-minutes <n>]
                                     every row's invoice file present with the right hash; orphans listed
`;
