/**
 * What every `npm run portal` command shares: its exit codes and where it writes. One table, so a script can
 * tell a refusal from a typo, a missing file or an outage whichever command it ran.
 */

/** sysexits(3) codes, and 1 for "done, but refused or with problems found". */
export const EXIT = {
  ok: 0,
  /** Refused (not on the list, the last administrator, a backup not as signed) or problems found. */
  refused: 1,
  /** The command line is wrong: the usage follows. */
  usage: 64,
  /** A file or folder named on the command line cannot be read. */
  noInput: 66,
  /** A dependency (the identity provider) did not answer; nothing was changed. */
  unavailable: 69,
  /** An unexpected failure: a bug. */
  software: 70,
  /** The database is in use by another process, or its schema is behind this release: try again later. */
  tempFail: 75,
  /** The configuration is incomplete or wrong. */
  config: 78,
} as const;

/** Where a command writes, a line at a time: the terminal, or a test's arrays. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export const stdio: CliOutput = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};
