import pg from 'pg';

/**
 * Drops and creates `<name>_<suffix>` beside the database in `databaseUrl` (its role needs CREATEDB) and
 * returns its URL: a run that starts from an empty database, leaving the given one alone.
 */
export async function freshDatabaseBeside(databaseUrl: string, suffix: string): Promise<string> {
  const url = new URL(databaseUrl);
  const database = `${url.pathname.slice(1)}_${suffix}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${pg.escapeIdentifier(database)} with (force)`);
    await admin.query(`create database ${pg.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${database}`;
  return url.toString();
}
